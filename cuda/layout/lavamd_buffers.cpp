#include "lavamd_buffers.h"

#include <vector>

#include "check.h"

namespace gpucmp::cuda {

void LavaMdBuffers::upload() {
  const std::size_t words = p_.particles * 4;
  const std::vector<float> rv = layout::from_aos(p_.rv, layout_, p_.particles, 4);
  fv_ = device_alloc(words * sizeof(float), "lavamd fv");
  rv_ = device_alloc(words * sizeof(float), "lavamd rv");
  qv_ = device_alloc(p_.particles * sizeof(float), "lavamd qv");
  neighbours_ = device_alloc(p_.neighbours.size() * sizeof(int), "lavamd boxes");
  counts_ = device_alloc(p_.counts.size() * sizeof(int), "lavamd counts");
  copy_and_wait(rv_.get(), rv.data(), words * sizeof(float), cudaMemcpyHostToDevice, stream(),
                "lavamd rv");
  copy_and_wait(qv_.get(), p_.qv.data(), p_.particles * sizeof(float), cudaMemcpyHostToDevice,
                stream(), "lavamd qv");
  copy_and_wait(neighbours_.get(), p_.neighbours.data(), p_.neighbours.size() * sizeof(int),
                cudaMemcpyHostToDevice, stream(), "lavamd boxes");
  copy_and_wait(counts_.get(), p_.counts.data(), p_.counts.size() * sizeof(int),
                cudaMemcpyHostToDevice, stream(), "lavamd counts");
}

void LavaMdBuffers::download() {
  std::vector<float> fv(p_.particles * 4);
  copy_and_wait(fv.data(), fv_.get(), fv.size() * sizeof(float), cudaMemcpyDeviceToHost, stream(),
                "lavamd fv");
  layout::to_aos(fv, layout_, p_.fv, p_.particles, 4);
}

}  // namespace gpucmp::cuda

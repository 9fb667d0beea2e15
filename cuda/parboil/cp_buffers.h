// Device copies of one cp problem: the base of the CUDA cp runners (cp.cu's
// kernels and the cross-run rows), which differ only in enqueue().
#pragma once
#include "timed_runner.h"
#include "workloads/parboil/cp.h"

namespace gpucmp::cuda {

class CpBuffers : public TimedRunner {
 public:
  explicit CpBuffers(cp::Problem& p) : p_(p) {}
  void upload() override;    // the atoms (float4 x, y, dz^2, q) and the energy grid
  void download() override;  // the energy grid into problem.energy

 protected:
  const cp::Problem& problem() const { return p_; }
  const float* atoms() const { return static_cast<const float*>(atoms_.get()); }
  float* energy() const { return static_cast<float*>(energy_.get()); }
  void clear_energy();  // on stream()

 private:
  cp::Problem& p_;
  DevicePtr atoms_, energy_;
};

}  // namespace gpucmp::cuda

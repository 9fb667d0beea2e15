// CUDA runner of cp: per launch, clear the grid, then for each chunk of atoms
// copy it into constant memory and launch the kernel (cp.cu).
#include <algorithm>

#include "parboil_kernels.h"
#include "runners.h"
#include "timed_runner.h"
#include "workloads/cp.h"

namespace gpucmp::cuda {

namespace {

class CpRunner : public TimedRunner {
 public:
  CpRunner(cp::Problem& p, const cp::Variant& v)
      : p_(p), unrollx8_(v.kernel == cp::Kernel::unrollx8), k_(cp_kernels(v.math == cp::Math::fast)) {}

  void upload() override {
    atoms_ = device_alloc(p_.atoms.size() * sizeof(float), "cp atoms");
    energy_ = device_alloc(p_.energy.size() * sizeof(float), "cp energy grid");
    copy_and_wait(atoms_.get(), p_.atoms.data(), p_.atoms.size() * sizeof(float),
                  cudaMemcpyHostToDevice, stream(), "cp atoms");
  }
  void download() override {
    copy_and_wait(p_.energy.data(), energy_.get(), p_.energy.size() * sizeof(float),
                  cudaMemcpyDeviceToHost, stream(), "cp energy grid");
  }

 protected:
  void enqueue() override {
    const cp::Config& c = p_.config;
    float* energy = static_cast<float*>(energy_.get());
    const float* atoms = static_cast<const float*>(atoms_.get());
    check(cudaMemsetAsync(energy, 0, p_.energy.size() * sizeof(float), stream()),
          "cudaMemsetAsync", "cp energy grid");
    for (int start = 0; start < c.atoms; start += cp::kAtomsPerChunk) {
      const int count = std::min(cp::kAtomsPerChunk, c.atoms - start);
      check(k_.set_atoms(atoms + 4 * std::size_t(start), count, stream()),
            "cudaMemcpyToSymbolAsync", "cp atom chunk");
      k_.launch(unrollx8_, count, c.spacing, energy, c.nx, c.ny, stream());
    }
  }

 private:
  cp::Problem& p_;
  bool unrollx8_;
  const CpKernels& k_;
  DevicePtr atoms_, energy_;
};

}  // namespace

void register_cp_runners() {
  cp::add_runner("cuda", [](cp::Problem& p, const cp::Variant& v) {
    return std::make_unique<CpRunner>(p, v);
  });
}

}  // namespace gpucmp::cuda

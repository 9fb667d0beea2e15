// CUDA runner of cp: per launch, clear the grid, then for each chunk of atoms
// copy it into constant memory and launch the kernel (cp.cu).
#include <algorithm>

#include "block_limit.h"
#include "cp_buffers.h"
#include "parboil_kernels.h"
#include "runner_table.h"

namespace gpucmp::cuda {

void CpBuffers::upload() {
  atoms_ = device_alloc(p_.atoms.size() * sizeof(float), "cp atoms");
  energy_ = device_alloc(p_.energy.size() * sizeof(float), "cp energy grid");
  copy_and_wait(atoms_.get(), p_.atoms.data(), p_.atoms.size() * sizeof(float),
                cudaMemcpyHostToDevice, stream(), "cp atoms");
}

void CpBuffers::download() {
  copy_and_wait(p_.energy.data(), energy_.get(), p_.energy.size() * sizeof(float),
                cudaMemcpyDeviceToHost, stream(), "cp energy grid");
}

void CpBuffers::clear_energy() {
  check(cudaMemsetAsync(energy_.get(), 0, p_.energy.size() * sizeof(float), stream()),
        "cudaMemsetAsync", "cp energy grid");
}

namespace {

class CpRunner : public CpBuffers {
 public:
  CpRunner(cp::Problem& p, const cp::Variant& v)
      : CpBuffers(p),
        unrollx8_(v.kernel == cp::Kernel::unrollx8),
        k_(cp_kernels(v.math == cp::Math::fast)),
        block_(v.local) {
    if (!cp::default_local(v)) check_block_limit(k_.kernel(unrollx8_), block_, 2, "cp/" + v.name);
  }

 protected:
  void enqueue() override {
    const cp::Config& c = problem().config;
    clear_energy();
    for (int start = 0; start < c.atoms; start += cp::kAtomsPerChunk) {
      const int count = std::min(cp::kAtomsPerChunk, c.atoms - start);
      check(k_.set_atoms(atoms() + 4 * std::size_t(start), count, stream()),
            "cudaMemcpyToSymbolAsync", "cp atom chunk");
      k_.launch(unrollx8_, count, c.spacing, energy(), c.nx, c.ny, block_.x, block_.y, stream());
    }
  }

 private:
  bool unrollx8_;
  const CpKernels& k_;
  LocalShape block_;
};

GPUCMP_RUNNERS("cuda") {
  cp::runners().add("cuda", cp::variants(), [](cp::Problem& p, const cp::Variant& v) {
    return std::make_unique<CpRunner>(p, v);
  });
}

}  // namespace

}  // namespace gpucmp::cuda

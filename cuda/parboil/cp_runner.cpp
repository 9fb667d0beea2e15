// CUDA runner of cp: per launch, clear the grid, then for each chunk of atoms
// copy it into constant memory and launch the kernel (cp.cu); the -ldg rows
// launch on the chunk where it lies.
#include <vector>

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

// ldg: the -ldg control rows, unrollx8 reading each chunk of atoms from the
// atoms' device buffer itself (no copy into constant memory). The by-value
// form passes each chunk from host memory as a kernel argument (no copy
// either); the prefetch form reads the constant chunk one atom ahead.
class CpRunner : public CpBuffers {
 public:
  CpRunner(cp::Problem& p, const cp::Variant& v, bool ldg)
      : CpBuffers(p),
        unrollx8_(v.kernel == cp::Kernel::unrollx8),
        ldg_(ldg),
        form_(v.form),
        k_(cp_kernels(v.math == cp::Math::fast)),
        block_(v.local) {
    if (form_ == cp::Form::byvalue) chunks_ = cp::byvalue_chunks(p, cp::kByValueAtoms);
    if (cp::default_local(v)) return;
    const void* kernel = ldg_                          ? k_.kernel_ldg()
                         : form_ != cp::Form::constant ? k_.kernel_form(form_)
                                                       : k_.kernel(unrollx8_);
    check_block_limit(kernel, block_, 2, "cp/" + v.name);
  }

 protected:
  void enqueue() override {
    const cp::Config& c = problem().config;
    clear_energy();
    const int per_launch = form_ == cp::Form::byvalue ? cp::kByValueAtoms : cp::kAtomsPerChunk;
    byvalue::for_each_chunk(c.atoms, per_launch, [&](int start, int count) {
      const std::size_t offset = 4 * std::size_t(start);
      if (form_ == cp::Form::byvalue) {
        k_.launch_byvalue(count, c.spacing, energy(), chunks_.data() + offset, c.nx, c.ny, block_.x,
                          block_.y, stream());
        return;
      }
      const float* chunk = atoms() + offset;
      if (ldg_) {
        k_.launch_ldg(count, c.spacing, energy(), chunk, c.nx, c.ny, block_.x, block_.y, stream());
        return;
      }
      check(k_.set_atoms(chunk, count, stream()), "cudaMemcpyToSymbolAsync", "cp atom chunk");
      if (form_ == cp::Form::prefetch)
        k_.launch_prefetch(count, c.spacing, energy(), c.nx, c.ny, block_.x, block_.y, stream());
      else
        k_.launch(unrollx8_, count, c.spacing, energy(), c.nx, c.ny, block_.x, block_.y, stream());
    });
  }

 private:
  bool unrollx8_, ldg_;
  cp::Form form_;
  const CpKernels& k_;
  LocalShape block_;
  std::vector<float> chunks_;  // byvalue: the atoms in whole chunks (cp::byvalue_chunks)
};

// CUDA's own rows: unrollx8 (as written: the fast-ftz kernel is unrollx8-fast's)
// with its atoms read through the read-only path instead of the constant bank,
// the load NVIDIA's OpenCL JIT makes of cp's __constant argument.
std::vector<cp::Variant> ldg_variants() {
  return {{"unrollx8-ldg", cp::Kernel::unrollx8, cp::Math::precise},
          {"unrollx8-fast-ldg", cp::Kernel::unrollx8, cp::Math::fast}};
}

GPUCMP_RUNNERS("cuda") {
  cp::runners().add("cuda", cp::variants(), [](cp::Problem& p, const cp::Variant& v) {
    return std::make_unique<CpRunner>(p, v, false);
  });
  cp::runners().add("cuda", ldg_variants(), [](cp::Problem& p, const cp::Variant& v) {
    return std::make_unique<CpRunner>(p, v, true);
  });
}

}  // namespace

}  // namespace gpucmp::cuda

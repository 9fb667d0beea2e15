// Cross-run rows of cp (cross_runners.h): the unrollx8 kernel as OpenCL's
// compiler made it (`unrollx8[-ieee|-fast]-opencl-ptx`, each with its OpenCL
// program's math options) and as nvcc made it (`unrollx8-ptx-jit`, the
// precise build), JIT-compiled by the CUDA driver and launched as both APIs'
// runners do: the row's blocks (kBlockX x kBlockY unless --cp-local gave
// another) over an nx/kUnrollX x ny grid of threads (OpenCL: global
// {nx/8, ny}, local {16, 8}), the grid cleared, then per chunk of atoms the
// chunk copied into the module's constant array and one launch. Argument
// lists are each compiler's own:
//   OpenCL cp_unrollx8(numatoms, gridspacing, energygrid, __constant atominfo)
//   nvcc   cp_unrollx8(numatoms, gridspacing, energygrid)   (atominfo a symbol)
#include <vector>

#include "block_limit.h"
#include "cp_buffers.h"
#include "cross_ptx_text.h"
#include "cross_runners.h"
#include "jit_runner.h"
#include "ptx/cuda_abi.h"
#include "workloads/parboil/cp.h"

namespace gpucmp::cuda {

namespace {

constexpr std::size_t kChunkBytes =
    std::size_t(cp::kAtomsPerChunk) * 4 * sizeof(float);  // float4 atoms

class JitCp : public JitRunner<CpBuffers> {
 public:
  JitCp(cp::Problem& p, const cp::Variant& v, const std::string& ptx, const std::string& kernel,
        const std::string& constant, bool opencl_args, const std::string& what)
      : JitRunner(p, ptx, what),
        opencl_args_(opencl_args),
        kernel_(library().kernel(kernel)),
        constant_(library().global(constant, kChunkBytes)),
        block_(v.local) {
    if (!cp::default_local(v))
      check_block_limit(reinterpret_cast<const void*>(kernel_), block_, 2, what);
  }

 protected:
  void enqueue() override {
    const cp::Config& c = problem().config;
    clear_energy();
    const dim3 block(block_.x, block_.y);
    const dim3 grid(c.nx / (block_.x * cp::kUnrollX), c.ny / block_.y);
    byvalue::for_each_chunk(c.atoms, cp::kAtomsPerChunk, [&](int start, int count) {
      check(cudaMemcpyAsync(constant_, atoms() + 4 * std::size_t(start),
                            4 * sizeof(float) * std::size_t(count), cudaMemcpyDeviceToDevice,
                            stream()),
            "cudaMemcpyAsync", what() + " atom chunk into constant memory");
      if (opencl_args_)  // the __constant pointer: unused once redirected, given the array
        launch(kernel_, grid, block, stream(), what(), count, c.spacing, energy(),
               static_cast<float*>(constant_));
      else
        launch(kernel_, grid, block, stream(), what(), count, c.spacing, energy());
    });
  }

 private:
  bool opencl_args_;
  cudaKernel_t kernel_;
  void* constant_;
  LocalShape block_;
};

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::vector<cp::Variant> cp_cross_variants() {
  using cp::Kernel;
  using cp::Math;
  return {{"unrollx8-opencl-ptx", Kernel::unrollx8, Math::precise},
          {"unrollx8-ieee-opencl-ptx", Kernel::unrollx8, Math::ieee},
          {"unrollx8-fast-opencl-ptx", Kernel::unrollx8, Math::fast},
          {"unrollx8-ptx-jit", Kernel::unrollx8, Math::precise}};
}

std::unique_ptr<Runner> make_cp_cross_runner(cp::Problem& p, const cp::Variant& v) {
  const std::string what = "cp/" + v.name;
  const std::string opencl = "-opencl-ptx";
  if (ends_with(v.name, opencl)) {
    const std::string base = v.name.substr(0, v.name.size() - opencl.size());
    const std::string ptx = opencl_ptx_for_cuda("cp", base, kChunkBytes);
    return std::make_unique<JitCp>(p, v, ptx, "cp_unrollx8", ptx::kConstantArgSymbol, true, what);
  }
  const std::string ptx = nvcc_ptx_for("cp", "unrollx8");
  return std::make_unique<JitCp>(p, v, ptx, entry_named(ptx, {"11cp_unrollx8E"}, what),
                                 variable_named(ptx, {"8atominfoE"}, what), false, what);
}

namespace {
GPUCMP_CROSS_RUNNERS("cuda") {
  cp::runners().add("cuda", cp_cross_variants(), make_cp_cross_runner);
}
}  // namespace

}  // namespace gpucmp::cuda

// Cross-run rows of lavamd (cross_runners.h), in every layout: the kernel as
// OpenCL's compiler made it (`base-opencl-ptx`, the OpenCL program of the
// row's layout, layout::program_name) and as nvcc made it (`base-ptx-jit`,
// nvcc's lavamd_kernel<layout, kTile, 4>), each JIT-compiled by the CUDA driver
// and launched like lavamd/cuda/base and lavamd/opencl/base: one block of
// lavamd::kThreads per box (OpenCL: global boxes x kThreads, local kThreads),
// the same particles and validation. Both compilers' kernels take
// (fv, rv, qv, neighbours, counts, n, a2).
#include "cross_ptx_text.h"
#include "cross_runners.h"
#include "jit_runner.h"
#include "lavamd_buffers.h"
#include "workloads/layout/lavamd.h"

namespace gpucmp::cuda {

namespace {

class JitLavaMd : public JitRunner<LavaMdBuffers> {
 public:
  JitLavaMd(lavamd::Problem& p, const lavamd::Variant& v, const std::string& ptx,
            const std::string& kernel, const std::string& what)
      : JitRunner(p, v, ptx, what), kernel_(library().kernel(kernel)) {}

 protected:
  void enqueue() override {
    const lavamd::Problem& p = problem();
    launch(kernel_, dim3(unsigned(p.boxes)), dim3(lavamd::kThreads), stream(), what(), f(fv_),
           f(rv_), f(qv_), i(neighbours_), i(counts_), p.particles, lavamd::kA2);
  }

 private:
  cudaKernel_t kernel_;
};

// nvcc's mangled lavamd_kernel<GPUCMP_LAYOUT, kTile, alignof(float)> (base;
// gpucmp_layouts.h: aos 0, soa 1, aosoa 2).
std::string nvcc_entry_part(layout::Layout l) {
  return "lavamd_kernelILi" + std::to_string(int(l)) + "ELi" + std::to_string(lavamd::kTile) +
         "ELi4EE";
}

}  // namespace

GPUCMP_CROSS_RUNNERS("cuda") {
  const std::vector<lavamd::Variant> from_opencl = {{"base-opencl-ptx"}};
  const std::vector<lavamd::Variant> jit = {{"base-ptx-jit"}};
  lavamd::runners().add("cuda", from_opencl, [](lavamd::Problem& p, const lavamd::Variant& row) {
    const std::string program = layout::program_name({"base", row.layout});
    const std::string what = "lavamd/" + row.name + " (" + layout::to_string(row.layout) + ")";
    return std::make_unique<JitLavaMd>(p, row, opencl_ptx_for_cuda("lavamd", program, 0), "lavamd",
                                       what);
  });
  lavamd::runners().add("cuda", jit, [](lavamd::Problem& p, const lavamd::Variant& row) {
    const std::string what = "lavamd/" + row.name + " (" + layout::to_string(row.layout) + ")";
    const std::string ptx = nvcc_ptx_for("lavamd", "base");
    return std::make_unique<JitLavaMd>(p, row, ptx,
                                       entry_named(ptx, {nvcc_entry_part(row.layout)}, what), what);
  });
}

}  // namespace gpucmp::cuda

// Cross-run rows of MRI's by-value form (cross_runners.h): OpenCL's own PTX of
// precise-byvalue / fast-byvalue (ComputeQByValue, ComputeFHByValue: the chunk
// of k-value records one by-value struct argument, the per-k factors filled
// on the host at each launch, mri::fill_byvalue_records), JIT-compiled by the
// CUDA driver and launched as the OpenCL row does: the outputs cleared, then
// one voxel kernel a chunk. The chunk's size is the one OpenCL's program was
// built with (its K_BYVALUE, read from the kernel's last parameter in the PTX)
// and must equal the CUDA by-value rows' (mri::byvalue_k_cuda), so that the row
// launches as both by-value rows do: on a device whose OpenCL limit gives
// another chunk the row is skipped with both sizes named. With them it splits the by-value pair
// into OpenCL's front end (this row against CUDA's precise-byvalue) and OpenCL's JIT and runtime
// (the OpenCL row against this one); Nsight Compute profiles it as any CUDA row, which it cannot do
// for the OpenCL row.
#include <memory>
#include <string>
#include <vector>

#include "block_limit.h"
#include "cross_ptx_text.h"
#include "cross_runners.h"
#include "errors.h"
#include "jit_runner.h"
#include "mri_buffers.h"
#include "workloads/parboil/mri_byvalue.h"

namespace gpucmp::cuda {

namespace {

class JitMriByValue : public JitRunner<MriBuffers> {
 public:
  JitMriByValue(mri::Problem& p, const mri::Variant& v, const std::string& ptx,
                const std::string& kernel, const std::string& what)
      : JitRunner(p, ptx, what),
        per_launch_(mri::byvalue_k_cuda(p.kind)),
        compute_(library().kernel(kernel)),
        block_(v.local.x) {
    const std::size_t want = std::size_t(per_launch_) * kv_floats() * sizeof(float);
    const std::size_t got = last_param_bytes(ptx, kernel, what);
    if (got != want)
      throw Unavailable(what + ": OpenCL's chunk is " + std::to_string(got) + " bytes, CUDA's " +
                        std::to_string(want) + ": the rows would not launch alike");
    if (!mri::default_local(v))
      check_block_limit(reinterpret_cast<const void*>(compute_), v.local, 1, what);
  }

 protected:
  void enqueue() override {
    const mri::Dataset& d = problem().data;
    mri::fill_byvalue_records(d, problem().kind, per_launch_, records_);
    clear_outputs();
    const dim3 x_block(block_), x_grid((d.numX + block_ - 1) / block_);
    const std::size_t floats = kv_floats();
    byvalue::for_each_chunk(d.numK, per_launch_, [&](int start, int count) {
      const ParamBytes chunk{records_.data() + floats * std::size_t(start)};
      launch(compute_, x_grid, x_block, stream(), what(), count, d.numX, f(x_), f(y_), f(z_),
             f(out_r_), f(out_i_), chunk);
    });
  }

 private:
  int per_launch_;  // k-values a launch
  cudaKernel_t compute_;
  int block_;                   // threads per block of the voxel kernel
  std::vector<float> records_;  // filled by each launch (mri::fill_byvalue_records)
};

}  // namespace

std::unique_ptr<Runner> make_mri_byvalue_cross_runner(mri::Problem& p, const mri::Variant& v,
                                                      const std::string& ptx,
                                                      const std::string& what) {
  const std::string kernel = p.kind == mri::Kind::q ? "ComputeQByValue" : "ComputeFHByValue";
  return std::make_unique<JitMriByValue>(p, v, ptx, kernel, what);
}

}  // namespace gpucmp::cuda

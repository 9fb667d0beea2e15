// OpenCL runner of advection: as cuda/advection/advection_runner.cpp, the
// step from advection.cl (its program per variant registered below:
// branchy is advection_blocked built with -DTWO_BRANCH), the halos of
// several GPUs staged through the host or copied within one context
// (cl_halo.h, whose transfer queue also runs the edge rows, beside the
// interior). An over:context part runs, from its construction to its
// destruction, on its device's session in the split group's shared context.
#include <memory>
#include <string>
#include <vector>

#include "check.h"
#include "cl_halo.h"
#include "errors.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/advection/advection.h"

namespace gpucmp::opencl {

namespace {

// OpenCL's own variant advection::kAsyncCpAsync: async with the ring filled by
// PTX cp.async through NVIDIA's inline asm (advection_async.cl,
// -DNV_CP_ASYNC): what a pass that rewrote async_work_group_copy would give.
// NVIDIA's driver only: elsewhere the row is skipped, never run as plain async
// (as its cross-runs, kInlineCpAsync below).
// And async built from its own PTX after the cpasync pass (ptx/passes.h): the
// same rewrite made by a pass on NVIDIA's PTX, loaded through OpenCL.
constexpr const char* kPtxCpAsync = advection::kAsyncPtxCpAsync;
// And after cpasync-nobar: each copy's own barrier removed as well.
constexpr const char* kPtxCpAsyncNoBar = advection::kAsyncPtxCpAsyncNoBar;
// The inline-asm form's cross-runs toward the pass's build, with the options
// that make each of them (advection_async.cl).
struct InlineCpAsync {
  const char* variant;
  const char* options;
};
constexpr InlineCpAsync kInlineCpAsync[] = {
    {advection::kAsyncCpAsync, "-DNV_CP_ASYNC"},
    {advection::kAsyncCpAsyncWait0, "-DNV_CP_ASYNC -DCP_ASYNC_WAIT=0"},
    {advection::kAsyncCpAsync4B, "-DNV_CP_ASYNC -DCP_ASYNC_ELEMENTS"},
    {advection::kAsyncCpAsync4BWait0, "-DNV_CP_ASYNC -DCP_ASYNC_ELEMENTS -DCP_ASYNC_WAIT=0"},
};

const char* kernel_name(const std::string& variant) {
  if (variant == "plain") return "advection_plain";
  if (variant == "weights") return "advection_weights";
  if (variant == "stream") return "advection_stream";
  if (advection::runs_async_kernel(variant)) return "advection_async";
  return "advection_blocked";
}

class AdvectionRunner : public TimedRunner {
 public:
  AdvectionRunner(advection::Problem& p, const advection::Variant& v)
      : in_context_(shared_context_scope(v)),
        p_(p),
        tile_(advection::tile_shape(v.name)),
        part_(advection::runner_part(p, v)),
        plans_(advection::runner_plans(part_, v)),
        program_(session().program(program_spec("advection", v.name))),
        kernel_(make_kernel(program_, kernel_name(v.name))) {
    if (v.parts > 1) halo_ = make_halo(v.over, part_, p.nx, halo_link());
  }

  void upload() override {
    const std::size_t offset = std::size_t(part_.resident.first) * p_.nx;
    const std::size_t bytes = std::size_t(part_.resident.count) * p_.nx * sizeof(float);
    for (Buffer& f : f_) {
      f = make_buffer(CL_MEM_READ_WRITE, bytes, "advection f");
      check(clEnqueueWriteBuffer(session().queue(), f, CL_TRUE, 0, bytes,
                                 p_.initial.data() + offset, 0, nullptr, nullptr),
            "clEnqueueWriteBuffer", "advection f");
    }
    done_ = 0;
    if (part_.own.first == 0) p_.steps_done = 0;
  }
  void download() override {
    const std::size_t skip = std::size_t(part_.own.first - part_.resident.first) * p_.nx;
    check(clEnqueueReadBuffer(session().queue(), f_[done_ % 2], CL_TRUE, skip * sizeof(float),
                              std::size_t(part_.own.count) * p_.nx * sizeof(float),
                              p_.out.data() + std::size_t(part_.own.first) * p_.nx, 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer", "advection f");
  }
  double build_ms() const override { return program_.build_ms; }

 protected:
  void enqueue() override {
    const advection::Flow& flow = p_.flow;
    const Buffer& from = f_[done_ % 2];
    const Buffer& to = f_[(done_ + 1) % 2];
    cl_command_queue q = session().queue();
    const advection::StepPlan& plan = plans_[std::size_t(done_) % plans_.size()];
    if (halo_ && plan.exchange) halo_->begin(q);
    advection::halo_step(
        plan,
        [&](const advection::RowRange& rows, advection::StepPhase phase) {
          launch(from, to, rows, flow,
                 halo_ && phase == advection::StepPhase::edges ? halo_->edge_queue() : q);
        },
        [&] {
          if (halo_) halo_->start(to.get(), q);
        },
        [&] {
          if (halo_) halo_->finish(to.get(), q);
        });
    ++done_;
    if (part_.own.first == 0) p_.steps_done = done_;  // the parts of one process share p_
  }

 private:
  static std::unique_ptr<ThisThreadSession> shared_context_scope(const advection::Variant& v) {
    if (v.parts < 2 || v.over != advection::Transport::context) return nullptr;
    return std::make_unique<ThisThreadSession>(session().in_shared_context());
  }

  // Rows `rows` (whole tiles): a work-group of the variant's tile shape
  // (advection::tile_shape: advection.cl's TILE_X, PLAIN_ROWS, WEIGHTS_ROWS,
  // TILE_Y; advection_async.cl's THREADS, CELLS and ROWS).
  void launch(const Buffer& from, const Buffer& to, const advection::RowRange& rows,
              const advection::Flow& flow, cl_command_queue q) {
    set_args(kernel_, "advection", from, to, cl_int(part_.resident.first), cl_int(rows.first),
             cl_int(p_.nx), cl_int(p_.ny), float(flow.xc), float(flow.yc), float(flow.omega));
    const auto groups_y = std::size_t(rows.count / tile_.rows);
    if (groups_y == 0) return;
    const std::size_t local[2] = {std::size_t(tile_.threads_x), std::size_t(tile_.threads_y)};
    const std::size_t global[2] = {std::size_t(tile_.tiles_x(p_.nx)) * local[0],
                                   groups_y * local[1]};
    check(clEnqueueNDRangeKernel(q, kernel_, 2, nullptr, global, local, 0, nullptr, record()),
          "clEnqueueNDRangeKernel", "advection");
  }

  std::unique_ptr<ThisThreadSession> in_context_;  // first made, last gone
  advection::Problem& p_;
  advection::TileShape tile_;
  advection::HaloPart part_;
  std::vector<advection::StepPlan> plans_;  // one exchange cycle: step done_ mod its size
  const BuiltProgram& program_;
  Kernel kernel_;
  std::unique_ptr<ClHalo> halo_;  // several GPUs
  Buffer f_[2];
  long long done_ = 0;  // steps launched since the upload
};

GPUCMP_PROGRAMS {
  specs.push_back(source("advection", "blocked", "advection.cl", ""));
  specs.push_back(source("advection", "branchy", "advection.cl", "-DTWO_BRANCH"));
  specs.push_back(source("advection", "plain", "advection.cl", ""));
  specs.push_back(source("advection", "weights", "advection.cl", ""));
  specs.push_back(source("advection", "stream", "advection.cl", ""));
  const ProgramSpec async = source("advection", "async", "advection_async.cl", "");
  specs.push_back(async);
  ProgramSpec async_ptx_cpasync = derived(async, "ptx-cpasync", ProgramFrom::ptx_as_built_passes);
  async_ptx_cpasync.passes = {"cpasync"};
  specs.push_back(async_ptx_cpasync);
  ProgramSpec async_ptx_nobar =
      derived(async, "ptx-cpasync-nobar", ProgramFrom::ptx_as_built_passes);
  async_ptx_nobar.passes = {"cpasync-nobar"};
  specs.push_back(async_ptx_nobar);
  specs.push_back(source("advection", "ring", "advection_async.cl", "-DRING_LOADS"));
  // ring-vec4's prologue unrolled where the compiler builds it right
  // (advection_async.cl says why not on PoCL).
  specs.push_back(with_nvidia(
      source("advection", advection::kRingVec4, "advection_async.cl", "-DRING_LOADS -DRING_VEC4"),
      "-DRING_VEC4_PROLOGUE_UNROLLED"));
  for (const InlineCpAsync& form : kInlineCpAsync)
    specs.push_back(
        with_nvidia(source("advection", form.variant, "advection_async.cl", ""), form.options));
}

GPUCMP_RUNNERS("opencl") {
  advection::runners().add("opencl", advection::variants(),
                           [](advection::Problem& p, const advection::Variant& v) {
                             return std::make_unique<AdvectionRunner>(p, v);
                           });
  std::vector<advection::Variant> inline_forms;
  for (const InlineCpAsync& form : kInlineCpAsync) inline_forms.push_back({form.variant});
  advection::runners().add("opencl", inline_forms,
                           [](advection::Problem& p, const advection::Variant& v) {
                             if (!session().is_nvidia())
                               throw Unavailable(v.name +
                                                 " needs NVIDIA's OpenCL (PTX cp.async through "
                                                 "inline asm; the device is '" +
                                                 session().info().name + "')");
                             return std::make_unique<AdvectionRunner>(p, v);
                           });
  advection::runners().add("opencl", {{kPtxCpAsync}, {kPtxCpAsyncNoBar}, {advection::kRingVec4}},
                           [](advection::Problem& p, const advection::Variant& v) {
                             return std::make_unique<AdvectionRunner>(p, v);
                           });
}

}  // namespace

}  // namespace gpucmp::opencl

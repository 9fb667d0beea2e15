// CUDA runner of lavamd: one kernel launch per launch (lavamd.cu, instantiated
// once per layout) over the device copies of lavamd_buffers.h.
#include "check.h"
#include "lavamd_buffers.h"
#include "lavamd_kernels.h"
#include "runner_table.h"

namespace gpucmp::cuda {

namespace {

class LavaMdRunner : public LavaMdBuffers {
 public:
  LavaMdRunner(lavamd::Problem& p, const lavamd::Variant& v)
      : LavaMdBuffers(p, v), variant_(v.name) {}

 protected:
  void enqueue() override {
    launch_lavamd(particle_layout(), variant_ == "aligned", f(fv_), f(rv_), f(qv_), i(neighbours_),
                  i(counts_), problem().boxes, stream());
    check(cudaGetLastError(), "lavamd<<<>>>", "lavamd " + layout::to_string(particle_layout()));
  }

 private:
  std::string variant_;
};

GPUCMP_RUNNERS("cuda") {
  lavamd::runners().add("cuda", lavamd::variants(),
                        [](lavamd::Problem& p, const lavamd::Variant& v) {
                          return std::make_unique<LavaMdRunner>(p, v);
                        });
}

}  // namespace

}  // namespace gpucmp::cuda

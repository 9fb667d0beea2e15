// CUDA runner of advection: the part's resident rows of the initial field
// (the whole grid for one GPU) uploaded into both buffers; each launch one
// step from one buffer into the other (advection.cu) in the order of
// halo_step, the halos traded on two GPUs over the row's transport (halo.h,
// whose stream also runs the edge rows, beside the interior; over NCCL
// every step after the first two replayed from a graph of it,
// step_graph.h, unless --advection-graph off); the part's own rows of the
// last step downloaded.
#include <memory>
#include <vector>

#include "advection_kernels.h"
#include "check.h"
#include "halo.h"
#include "runner_table.h"
#include "step_graph.h"
#include "timed_runner.h"
#include "workloads/advection/advection.h"

namespace gpucmp::cuda {

namespace {

class AdvectionRunner : public TimedRunner {
 public:
  AdvectionRunner(advection::Problem& p, const advection::Variant& v)
      : p_(p),
        variant_(v.name),
        part_(advection::runner_part(p, v)),
        plans_(advection::runner_plans(part_, v)),
        graph_(v.graph),
        graphs_(2 * plans_.size()) {
    if (v.parts > 1) halo_ = make_halo(v.over, part_, p.nx, halo_link());
  }

  void upload() override {
    const std::size_t offset = std::size_t(part_.resident.first) * p_.nx;
    const std::size_t bytes = std::size_t(part_.resident.count) * p_.nx * sizeof(float);
    for (DevicePtr& f : f_) {
      f = device_alloc(bytes, "advection f");
      copy_and_wait(f.get(), p_.initial.data() + offset, bytes, cudaMemcpyHostToDevice, stream(),
                    "advection f");
    }
    if (halo_) halo_->bind(static_cast<float*>(f_[0].get()), static_cast<float*>(f_[1].get()));
    for (StepGraph& g : graphs_) g.reset();  // they name the buffers just replaced
    done_ = 0;
    if (part_.own.first == 0) p_.steps_done = 0;
  }
  void download() override {
    const std::size_t skip = std::size_t(part_.own.first - part_.resident.first) * p_.nx;
    copy_and_wait(p_.out.data() + std::size_t(part_.own.first) * p_.nx,
                  static_cast<const float*>(f_[done_ % 2].get()) + skip,
                  std::size_t(part_.own.count) * p_.nx * sizeof(float), cudaMemcpyDeviceToHost,
                  stream(), "advection f");
  }

 protected:
  // Over NCCL: the first two exchange cycles call by call (NCCL connects
  // its peers on its first send and receive, outside any capture), each
  // later step from the graph of its parity (which buffer it reads) and
  // place in the cycle, captured on first use. The problem's step count is
  // part 0's (the parts of one process share the problem).
  void enqueue() override {
    const auto cycle = static_cast<long long>(plans_.size());
    if (halo_ && halo_->graphable() && graph_ && done_ >= 2 * cycle) {
      StepGraph& g = graphs_[std::size_t(done_ % (2 * cycle))];
      if (!g.captured())
        g.capture(
            stream(), [&] { enqueue_step(); }, "advection/" + variant_);
      g.launch(stream(), "advection/" + variant_);
    } else {
      enqueue_step();
    }
    ++done_;
    if (part_.own.first == 0) p_.steps_done = done_;
  }

 private:
  void enqueue_step() {
    const advection::Flow& flow = p_.flow;
    const auto* from = static_cast<const float*>(f_[done_ % 2].get());
    auto* to = static_cast<float*>(f_[(done_ + 1) % 2].get());
    const advection::StepPlan& plan = plans_[std::size_t(done_) % plans_.size()];
    if (halo_ && plan.exchange) halo_->begin(to, stream());
    advection::halo_step(
        plan,
        [&](const advection::RowRange& rows, advection::StepPhase phase) {
          const bool edges = halo_ && phase == advection::StepPhase::edges;
          StepLaunch step{from,  to,    part_.resident.first, rows.first,     rows.count,
                          p_.nx, p_.ny, float(flow.xc),       float(flow.yc), float(flow.omega),
                          {}};
          if (edges) step.peers = halo_->peer_stores(to);
          launch_advection_step(variant_, step, edges ? halo_->edge_stream() : stream());
          check(cudaGetLastError(), "advection<<<>>>", "advection/" + variant_);
        },
        [&] {
          if (halo_) halo_->start(to, stream());
        },
        [&] {
          if (halo_) halo_->finish(to, stream());
        });
  }

  advection::Problem& p_;
  std::string variant_;
  advection::HaloPart part_;
  std::vector<advection::StepPlan> plans_;  // one exchange cycle: step done_ mod its size
  std::unique_ptr<Halo> halo_;              // several GPUs
  bool graph_;
  long long done_ = 0;             // steps launched since the upload
  std::vector<StepGraph> graphs_;  // by parity and place in the cycle: done_ mod 2 x cycle
  DevicePtr f_[2];
};

GPUCMP_RUNNERS("cuda") {
  advection::runners().add("cuda", advection::variants(),
                           [](advection::Problem& p, const advection::Variant& v) {
                             return std::make_unique<AdvectionRunner>(p, v);
                           });
  advection::runners().add("cuda", {{advection::kAsyncMaxL1}},
                           [](advection::Problem& p, const advection::Variant& v) {
                             return std::make_unique<AdvectionRunner>(p, v);
                           });
}

}  // namespace

}  // namespace gpucmp::cuda

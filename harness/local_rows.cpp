#include "local_rows.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

#include "errors.h"
#include "local_choice.h"
#include "measure.h"

namespace gpucmp {

LocalLimits local_limits(const DeviceInfo& dev) {
  LocalLimits l;
  if (dev.max_group_size > 0) l.max_size = dev.max_group_size;
  if (dev.max_group_x > 0) l.max_x = dev.max_group_x;
  if (dev.max_group_y > 0) l.max_y = dev.max_group_y;
  return l;
}

LocalOption::LocalOption(const std::string& workload, int dims, std::string divides)
    : workload_(workload),
      flag_("--" + workload + "-local"),
      dims_(dims),
      divides_(std::move(divides)) {}

void LocalOption::add_to(CLI::App& app) {
  const std::string help =
      dims_ == 2 ? workload_ +
                       " work-group shapes (comma-separated XxY, driver, query, study-x, study-y, "
                       "tuner, sweep; default 16x16,study-x,study-y,driver,tuner)"
                 : workload_ + " work-group sizes, dividing " + divides_ +
                       " (comma-separated N, driver, query, study, tuner, sweep; default "
                       "256,study,driver,tuner)";
  add_checked_list_option(
      app, flag_,
      [this](const std::vector<std::string>& items) {
        given_ = parse_local_specs(items, flag_, dims_);
      },
      help)
      ->type_name("LIST");
}

std::vector<LocalSpec> LocalOption::specs(const GlobalSize& global) const {
  std::vector<LocalSpec> specs = given_;
  if (specs.empty())
    specs = dims_ == 2
                ? parse_local_specs({"16x16", "study-x", "study-y", "driver", "tuner"}, flag_, 2)
                : parse_local_specs({"256", "study", "driver", "tuner"}, flag_, 1);
  return expand_local_specs(specs, global, flag_);
}

LocalShape LocalOption::split_shape(const GlobalSize& global) const {
  for (const LocalSpec& spec : specs(global))
    if (spec.rule == LocalRule::fixed) return spec.shape;
  return dims_ == 2 ? LocalShape{16, 16} : LocalShape{256, 1};
}

void check_given_shape(const LocalSpec& spec, const GlobalSize& global, const ApiSet& apis,
                       const std::string& api, const std::string& what) {
  if (spec.rule != LocalRule::fixed || spec.from_sweep) return;
  const auto it = apis.find(api);
  if (it == apis.end() || !it->second->unavailable().empty()) return;
  check_local_shape(spec.shape, global, local_limits(it->second->info()), what);
}

namespace {

// Seconds one launch of `shape` takes: the fastest of three batches of about
// 5 ms each after a warm-up launch (device timestamps).
double time_shape(const LocalShape& shape, const ShapedRunnerFactory& make) {
  const std::unique_ptr<Runner> runner = make(shape);
  runner->upload();
  const BatchTiming first = runner->time_batch(1);
  const int launches = batch_size(first.device_s, 5e-3);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i)
    best = std::min(best, runner->time_batch(launches).device_s / launches);
  return best;
}

// The model is fed what the row's own compiled kernel needs (its API's report,
// Runner::kernel_resources), asked of a runner made without a shape, as the
// "query" rule asks its suggestion.
LocalChoice tune(const GlobalSize& global, const DeviceInfo& dev, const ShapedRunnerFactory& make) {
  const KernelResources kernel = make(LocalShape{})->kernel_resources();
  const std::vector<LocalShape> candidates = candidate_shapes(global, local_limits(dev));
  const TunerResult t = tune_local(
      candidates, global, dev, tuner_budget(int(candidates.size())),
      [&make](const LocalShape& s) { return time_shape(s, make); }, kernel);
  return {t.shape, t.candidates, t.measured, kernel};
}

}  // namespace

LocalChoice resolve_local(const LocalSpec& spec, const GlobalSize& global, const DeviceInfo& dev,
                          const ShapedRunnerFactory& make, const std::string& what) {
  const LocalLimits limits = local_limits(dev);
  LocalChoice choice;
  switch (spec.rule) {
    case LocalRule::fixed:
      if (spec.from_sweep && (spec.shape.size() > limits.max_size || spec.shape.x > limits.max_x ||
                              spec.shape.y > limits.max_y))
        throw Unavailable("local size " + to_string(spec.shape, global.dims) +
                          " is over this device's work-group limit (" +
                          std::to_string(limits.max_size) + ")");
      check_local_shape(spec.shape, global, limits, what);
      choice.shape = spec.shape;
      break;
    case LocalRule::driver:
      if (dev.api != "cuda") break;  // LocalShape{}: a NULL local size
      [[fallthrough]];               // CUDA has no NULL: its choice is the occupancy API's
    case LocalRule::query: {
      const int block = make(LocalShape{})->suggested_group_size();
      if (block <= 0) throw std::logic_error(what + ": the runner suggests no work-group size");
      choice.shape = shape_for_block_size(block, global, limits);
      break;
    }
    case LocalRule::study:
    case LocalRule::study_x:
    case LocalRule::study_y:
      choice.shape = study_rule_shape(global, limits, std::max(1, dev.lanes_per_cu),
                                      spec.rule != LocalRule::study_y);
      break;
    case LocalRule::tuner:
      choice = tune(global, dev, make);
      break;
    case LocalRule::sweep:
      throw std::logic_error(what + ": a sweep spec reached a row (expand_local_specs first)");
  }
  return choice;
}

void add_local_counters(Measurement& m, const LocalChoice& choice) {
  m.counters.emplace_back("local_x", choice.shape.x);
  m.counters.emplace_back("local_y", choice.shape.y);
  if (choice.candidates > 0) {
    m.counters.emplace_back("tuner_candidates", choice.candidates);
    m.counters.emplace_back("tuner_measured", choice.measured);
    // What the model knew of the kernel (0: its API did not say).
    m.counters.emplace_back("tuner_kernel_regs", choice.kernel.registers);
    m.counters.emplace_back("tuner_kernel_shared_bytes", double(choice.kernel.shared));
    m.counters.emplace_back("tuner_kernel_max_threads", choice.kernel.max_threads);
    if (choice.kernel.reported_max_threads > 0)
      m.counters.emplace_back("tuner_kernel_reported_max_threads",
                              choice.kernel.reported_max_threads);
  }
}

}  // namespace gpucmp

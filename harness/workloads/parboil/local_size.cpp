#include "local_size.h"

#include <CLI/CLI.hpp>
#include <utility>

#include "../../errors.h"
#include "../../local_rows.h"
#include "../../options.h"

namespace gpucmp::parboil {

GlobalSize threads(const BlockRule& rule) {
  return {rule.dims, rule.points_x / rule.per_thread_x, rule.dims == 2 ? rule.points_y : 1};
}

GlobalSize launch_global(const BlockRule& rule, const LocalShape& shape) {
  GlobalSize g = threads(rule);
  if (rule.round_up && shape.x > 0) g.x = (g.x + shape.x - 1) / shape.x * shape.x;
  return g;
}

void check_block_rule(const LocalShape& shape, const BlockRule& rule, const std::string& what) {
  if (rule.round_up) return;
  const std::string along_x =
      " does not divide the grid's " + std::to_string(rule.points_x) + " points along x";
  if (rule.per_thread_x == 1 && rule.points_x % shape.x != 0)
    throw UsageError(what + ": " + rule.kernel +
                     " runs one thread per point: " + std::to_string(shape.x) + along_x);
  const long long span = static_cast<long long>(rule.per_thread_x) * shape.x;
  if (rule.per_thread_x > 1 && rule.points_x % span != 0)
    throw UsageError(what + ": " + rule.kernel + " runs " + std::to_string(rule.per_thread_x) +
                     " points per thread, X apart along x: " + std::to_string(rule.per_thread_x) +
                     " x " + std::to_string(shape.x) + " = " + std::to_string(span) + along_x);
  if (rule.dims == 2 && rule.points_y % shape.y != 0)
    throw UsageError(what + ": " + rule.kernel +
                     " runs one thread per row: " + std::to_string(shape.y) +
                     " does not divide the grid's " + std::to_string(rule.points_y) + " rows (y)");
}

std::vector<LocalShape> sweep_shapes(const BlockRule& rule) {
  return candidate_shapes(threads(rule), LocalLimits{});
}

Param LocalRow::param() const { return {"local", to_string(spec, dims)}; }

LocalSizes::LocalSizes(const std::string& workload, int dims, std::string rule_help)
    : workload_(workload),
      flag_("--" + workload + "-local"),
      dims_(dims),
      rule_help_(std::move(rule_help)) {}

LocalSpec LocalSizes::parse(const std::string& item) const {
  const std::string what = flag_ + " " + item;
  if (dims_ == 2 && item != "sweep" && item.find('x') == std::string::npos)
    throw UsageError(what + ": " + workload_ + "'s kernels are 2-D: give XxY (e.g. 32x8) or sweep");
  const LocalSpec spec = parse_local_specs({item}, flag_, dims_).front();
  if (spec.rule != LocalRule::fixed && spec.rule != LocalRule::sweep)
    throw UsageError(what + ": " + workload_ + " takes " + (dims_ == 2 ? "XxY" : "N") +
                     " or sweep, not the work-size rules (driver, query, study, tuner)");
  return spec;
}

void LocalSizes::add_to(CLI::App& app) {
  const std::string shape = dims_ == 2 ? "XxY" : "N";
  add_checked_list_option(
      app, flag_,
      [this](const std::vector<std::string>& items) {
        std::vector<LocalSpec> specs;
        specs.reserve(items.size());
        for (const std::string& item : items) specs.push_back(parse(item));
        given_ = std::move(specs);
      },
      workload_ + " block " + (dims_ == 2 ? "shapes" : "sizes") +
          " to run every row with too, as .../local:<" + shape + "> rows (comma-separated " +
          shape + " or sweep; " + rule_help_ + ")")
      ->type_name("LIST");
}

std::vector<LocalRow> LocalSizes::rows(const BlockRule& rule, const ApiSet& apis,
                                       const std::string& api) const {
  std::vector<LocalRow> out;
  const auto add = [&](const LocalSpec& spec) {
    for (const LocalRow& have : out)
      if (have.spec.shape == spec.shape) return;
    out.push_back({spec, launch_global(rule, spec.shape), dims_});
  };
  for (const LocalSpec& spec : given_) {
    if (spec.rule == LocalRule::sweep) {
      for (const LocalShape& s : sweep_shapes(rule)) add({LocalRule::fixed, s, true});
      continue;
    }
    const std::string what = flag_ + " " + to_string(spec, dims_);
    check_block_rule(spec.shape, rule, what);
    check_given_shape(spec, launch_global(rule, spec.shape), apis, api, what + " on " + api);
    add(spec);
  }
  return out;
}

void prepare_local_row(Measurement& m, const LocalRow& row, const DeviceInfo& dev,
                       const std::string& what) {
  const LocalChoice choice = resolve_local(row.spec, row.global, dev, ShapedRunnerFactory{}, what);
  add_local_counters(m, choice);
}

void check_kernel_limit(const LocalShape& shape, int dims, long long kernel_max,
                        const std::string& source) {
  if (kernel_max <= 0 || shape.size() <= kernel_max) return;
  throw Unavailable("local size " + to_string(shape, dims) + " (" + std::to_string(shape.size()) +
                    " work-items) is over this kernel's limit of " + std::to_string(kernel_max) +
                    " (" + source + ")");
}

}  // namespace gpucmp::parboil

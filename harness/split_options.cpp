#include "split_options.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "errors.h"
#include "options.h"

namespace gpucmp {

std::string to_string(const SplitSpec& spec) {
  if (!spec.fixed_share) return to_string(spec.rule);
  char buf[32];
  std::snprintf(buf, sizeof buf, "share:%g", spec.share);
  return buf;
}

std::vector<SplitSpec> parse_split_specs(const std::vector<std::string>& items,
                                         const std::string& what) {
  std::vector<SplitSpec> out;
  for (const std::string& item : items) {
    if (item == "sweep") {
      for (int tenth = 0; tenth <= 10; ++tenth)
        out.push_back({true, SplitRule::equal, tenth / 10.0});
    } else if (item.rfind("share:", 0) == 0) {
      try {
        out.push_back({true, SplitRule::equal, parse_real(item.substr(6), what, {0, false, 1})});
      } catch (const UsageError&) {
        throw UsageError(what + " " + item + ": the share must be a number in 0..1");
      }
    } else {
      try {
        out.push_back({false, parse_split_rule(item, what), 0});
      } catch (const UsageError&) {
        throw UsageError(what + " " + item +
                         ": not a split (equal, pe, study-k, calibrated, share:F with F in 0..1, "
                         "sweep)");
      }
    }
  }
  return out;
}

namespace {

ClDeviceIndex parse_cl_device(const std::string& text, const std::string& what) {
  // One rule for every bad item: the whole item and the form it must take.
  const std::string rule =
      ": not PLATFORM:DEVICE, two indices in 0..65536 (e.g. 0:0, see --list-devices)";
  const auto colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
    throw UsageError(what + " " + text + rule);
  const IntRange index{0, 1 << 16};
  try {
    return {int(parse_int(text.substr(0, colon), what, index)),
            int(parse_int(text.substr(colon + 1), what, index))};
  } catch (const UsageError&) {
    throw UsageError(what + " " + text + rule);
  }
}

}  // namespace

void add_split_options(CLI::App& app, SplitOptions& opts) {
  add_checked_list_option(
      app, "--split",
      [&opts](const std::vector<std::string>& items) {
        opts.specs = parse_split_specs(items, "--split");
      },
      "Multi-device rows of the workloads that can split their work: comma-separated rules "
      "(equal, pe, study-k, calibrated), fixed shares of the first device (share:F, F in 0..1) "
      "or sweep (share:0,0.1,..,1); none by default")
      ->type_name("LIST");
  add_checked_option(
      app, "--split-axis",
      [&opts](const std::string& text) {
        if (text != "x" && text != "y")
          throw UsageError("--split-axis " + text + ": must be x or y");
        opts.axis = text == "x" ? SplitAxis::x : SplitAxis::y;
      },
      "Cut 2-D work into blocks of rows (y, default) or of columns (x); 1-D work is cut along x")
      ->type_name("x|y");
  add_checked_option(
      app, "--split-launches",
      [&opts](const std::string& text) {
        opts.launches = int(parse_int(text, "--split-launches", {1, 1000000}));
      },
      "Kernel launches in one job of a split row (1..1000000; default the workload's, the "
      "study's counts)")
      ->type_name("N");
  add_checked_option(
      app, "--split-over",
      [&opts](const std::string& text) {
        if (text != "threads" && text != "mpi")
          throw UsageError("--split-over " + text + ": must be threads or mpi");
        opts.over = text == "mpi" ? SplitOver::mpi : SplitOver::threads;
      },
      "Drive the split devices from threads of this process (default) or from one MPI rank "
      "each: mpirun -np N gpucmp-bench --split-over mpi ... (rank 0 scatters each part's input "
      "and gathers its output, timed)")
      ->type_name("threads|mpi");
  add_checked_list_option(
      app, "--cuda-split-devices",
      [&opts](const std::vector<std::string>& items) {
        opts.cuda_devices.clear();
        for (const auto& text : items)
          opts.cuda_devices.push_back(int(parse_int(text, "--cuda-split-devices", {0, 1 << 16})));
      },
      "CUDA devices of the split rows (comma-separated indices, a device may repeat; default "
      "every CUDA device; with --split-over mpi one per rank, default the node-local rank's)",
      Repeats::allowed)
      ->type_name("LIST");
  add_checked_list_option(
      app, "--cl-split-devices",
      [&opts](const std::vector<std::string>& items) {
        opts.cl_devices.clear();
        for (const auto& text : items)
          opts.cl_devices.push_back(parse_cl_device(text, "--cl-split-devices"));
      },
      "OpenCL devices of the split rows (comma-separated PLATFORM:DEVICE, e.g. 0:0,1:0 for a GPU "
      "and PoCL's CPU; default every device of the selected platform; with --split-over mpi one "
      "per rank; a device may repeat)",
      Repeats::allowed)
      ->type_name("LIST");
}

void check_split_options(const SplitOptions& opts, bool workload_rows) {
  if (!opts.specs.empty() || workload_rows) return;
  if (!opts.cuda_devices.empty())
    throw UsageError("--cuda-split-devices: only with --split (there are no split rows)");
  if (!opts.cl_devices.empty())
    throw UsageError("--cl-split-devices: only with --split (there are no split rows)");
  if (opts.launches > 0)
    throw UsageError("--split-launches: only with --split (there are no split rows)");
  if (opts.over == SplitOver::mpi)
    throw UsageError("--split-over mpi: only with --split (there are no split rows)");
}

}  // namespace gpucmp

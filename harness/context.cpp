#include "context.h"

#include <cstdio>

#include "version.h"

namespace gpucmp {

void share_device_peaks(ApiSet& apis) {
  if (!apis.count("cuda") || !apis.count("opencl")) return;
  Api* cuda = apis.at("cuda");
  Api* cl = apis.at("opencl");
  if (!cuda->unavailable().empty() || !cl->unavailable().empty()) return;
  const DeviceInfo c = cuda->info();
  const DeviceInfo o = cl->info();
  if (c.pci_bus_id.empty() || c.pci_bus_id != o.pci_bus_id) return;
  cl->adopt_peaks(c);
}

ContextList collect_context(const Options& opts, const ApiSet& apis) {
  ContextList ctx = {
      {"gpucmp.revision", kGitRevision},
      {"gpucmp.version", kVersion},
      {"gpucmp.size", to_string(opts.size)},
      {"gpucmp.math", "precise on both APIs: no --use_fast_math, no -cl-fast-relaxed-math"},
      {"gpucmp.timing",
       "device timestamps (CUDA events / OpenCL profiling START..END) over a batch of "
       "launches; first launch and warm-up excluded; host wall clock alongside (host/device)"},
      {"gpucmp.units", "GB/s = 1e9 B/s (d2d counts read + write); GFLOP/s = 1e9 flop/s"},
  };
  for (const auto& [name, api] : apis) {
    api->add_context(ctx);
    const std::string why = api->unavailable();
    ctx.emplace_back(name + ".status", why.empty() ? "available" : "unavailable: " + why);
    if (!why.empty()) continue;
    const DeviceInfo d = api->info();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", d.fp32_peak_gflops);
    ctx.emplace_back(name + ".fp32_peak_gflops", buf);
    std::snprintf(buf, sizeof buf, "%.0f", d.dram_peak_gbps);
    ctx.emplace_back(name + ".dram_peak_gbps", buf);
    std::snprintf(buf, sizeof buf, "%.1f", d.link_peak_gbps);
    ctx.emplace_back(name + ".link_peak_gbps", buf);
    ctx.emplace_back(name + ".peak_note", d.peak_note);
  }
  return ctx;
}

}  // namespace gpucmp

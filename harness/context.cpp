#include "context.h"

#include <cstdio>
#include <cstdlib>

#include "measure.h"
#include "nvml.h"
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

namespace {
std::string sampling_text(const SamplingRule& r) {
  char buf[200];
  if (r.fixed > 0)
    std::snprintf(buf, sizeof buf, "fixed: %d samples", r.fixed);
  else
    std::snprintf(buf, sizeof buf,
                  "to a noise target: relative stddev <= %g%% after >= %d samples, at most "
                  "%g s or %d samples",
                  r.max_noise * 100, r.min_samples, r.time_limit_s, r.max_samples);
  return buf;
}

std::string env_or_unset(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "(unset)";
}
}  // namespace

ContextList collect_context(const Options& opts, const ApiSet& apis) {
  ContextList ctx = {
      {"gpucmp.revision", kGitRevision},
      {"gpucmp.version", kVersion},
      {"gpucmp.size", to_string(opts.size)},
      {"gpucmp.math", "precise on both APIs: no --use_fast_math, no -cl-fast-relaxed-math"},
      {"gpucmp.timing",
       "device timestamps of the batch's two ends only (CUDA: events before the first and "
       "after the last launch; OpenCL: markers, START of the first to END of the second), "
       "over a batch of launches (hot) or one launch after an L2 flush (cold); first launch "
       "and warm-up excluded; host wall clock alongside (host/device)" +
           std::string(opts.launch_floor ? "; each hot row against its API's launch floor "
                                           "(launch_bound)"
                                         : "; no launch floor probed (--launch-floor off): no "
                                           "row carries a launch-bound mark")},
      {"gpucmp.cache", to_string(opts.cache)},
      {"gpucmp.sampling", sampling_text(opts.sampling)},
      {"gpucmp.startup", opts.startup ? "on: startup/ benchmarks (build or module load + first "
                                        "launch, fresh each sample)"
                                      : "off"},
      {"gpucmp.units", "GB/s = 1e9 B/s (d2d counts read + write); GFLOP/s = 1e9 flop/s"},
  };
  for (const char* var : {"CUDA_CACHE_DISABLE", "CUDA_MODULE_LOADING", "CUDA_FORCE_PTX_JIT"})
    ctx.emplace_back(std::string("env.") + var, env_or_unset(var));
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
    ctx.emplace_back(name + ".l2_bytes", std::to_string(d.l2_bytes));
    // The bytes a kernel's arguments may take (OpenCL's
    // CL_DEVICE_MAX_PARAMETER_SIZE; 0: the API states none): the by-value
    // forms' chunks follow from it (byvalue_chunk.h).
    ctx.emplace_back(name + ".max_parameter_bytes", std::to_string(d.max_parameter_bytes));
    if (opts.cache == CacheMode::cold)
      ctx.emplace_back(name + ".l2_flush_bytes", std::to_string(flush_bytes_for(d.l2_bytes)));
    if (!d.pci_bus_id.empty()) {
      const ClockMonitor clocks(d.pci_bus_id);
      if (!clocks.available()) {
        ctx.emplace_back(name + ".nvml", "unavailable: " + clocks.why());
      } else {
        const ClockReading r = clocks.read();
        ctx.emplace_back(name + ".nvml", "clocks, temperature and power per benchmark");
        ctx.emplace_back(name + ".sm_max_mhz", std::to_string(int(r.sm_max_mhz)));
        ctx.emplace_back(name + ".mem_max_mhz", std::to_string(int(r.mem_max_mhz)));
      }
    }
  }
  return ctx;
}

}  // namespace gpucmp

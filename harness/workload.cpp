#include "workload.h"

#include "errors.h"

namespace gpucmp {

void register_benchmark(const BenchName& name, const ApiSet& apis, const Options& opts,
                        std::function<void(benchmark::State&, const DeviceInfo&)> body) {
  const auto it = apis.find(name.api);
  if (it == apis.end()) return;  // this build has no such API
  Api* api = it->second;
  benchmark::RegisterBenchmark(name.str().c_str(),
                               [name, api, body](benchmark::State& state) {
                                 run_guarded(state, name, [&] {
                                   const std::string why = api->unavailable();
                                   if (!why.empty()) throw Unavailable(why);
                                   body(state, api->info());
                                 });
                               })
      ->UseManualTime()
      ->Iterations(opts.samples)
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace gpucmp

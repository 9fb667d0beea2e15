#include "agpu_parameters.h"

#include <string>

namespace gpucmp {

void add_agpu_parameters(ContextList& ctx, const DeviceInfo& info) {
  const std::string key = info.api + ".agpu.";
  std::string source;
  if (info.compute_units > 0 && info.lanes_per_cu > 0) {
    ctx.emplace_back(key + "p", std::to_string(info.compute_units * info.lanes_per_cu));
    ctx.emplace_back(key + "units", std::to_string(info.compute_units));  // the model's grids
    source += "p: " + std::to_string(info.compute_units) + " compute units (queried) x " +
              std::to_string(info.lanes_per_cu) +
              (info.cc_major > 0 ? " FP32 lanes per unit (by compute capability)"
                                 : " lanes per unit (preferred float vector width)");
  }
  if (info.warp_size > 0) {
    ctx.emplace_back(key + "b", std::to_string(info.warp_size));
    source += std::string(source.empty() ? "" : "; ") + "b: warp size (queried)";
  }
  if (info.local_bytes_per_cu > 0) {
    ctx.emplace_back(key + "M_words", std::to_string(info.local_bytes_per_cu / 4));
    source += std::string(source.empty() ? "" : "; ") + "M: " + info.local_bytes_source;
  }
  if (!source.empty()) ctx.emplace_back(key + "source", source);
}

}  // namespace gpucmp

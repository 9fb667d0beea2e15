#include "registers.h"

#include <array>

namespace gpucmp::ptx {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool digits_only(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

bool is_special_register(std::string_view name) {
  if (!starts_with(name, "%")) return false;
  std::string_view base = name.substr(1);
  base = base.substr(0, base.find('.'));
  static const std::array<std::string_view, 26> kExact = {"tid",
                                                          "ntid",
                                                          "ctaid",
                                                          "nctaid",
                                                          "laneid",
                                                          "warpid",
                                                          "nwarpid",
                                                          "smid",
                                                          "nsmid",
                                                          "gridid",
                                                          "clock",
                                                          "clock64",
                                                          "clock_hi",
                                                          "globaltimer",
                                                          "globaltimer_lo",
                                                          "globaltimer_hi",
                                                          "total_smem_size",
                                                          "aggr_smem_size",
                                                          "dynamic_smem_size",
                                                          "current_graph_exec",
                                                          "clusterid",
                                                          "nclusterid",
                                                          "cluster_ctaid",
                                                          "cluster_nctaid",
                                                          "cluster_ctarank",
                                                          "cluster_nctarank"};
  for (auto e : kExact)
    if (base == e) return true;
  if (base == "is_explicit_cluster" || starts_with(base, "lanemask_") ||
      starts_with(base, "reserved_smem_offset"))
    return true;
  if (starts_with(base, "envreg")) return digits_only(base.substr(6));
  if (starts_with(base, "pm")) {
    std::string_view rest = base.substr(2);
    if (rest.size() > 3 && rest.substr(rest.size() - 3) == "_64") rest.remove_suffix(3);
    return digits_only(rest);
  }
  return false;
}

RegisterName split_register(std::string_view name) {
  RegisterName out;
  const std::size_t dot = name.find('.');
  std::string_view base = name.substr(0, dot);
  if (dot != std::string_view::npos) out.suffix = std::string(name.substr(dot));
  std::size_t digits = base.size();
  while (digits > 0 && base[digits - 1] >= '0' && base[digits - 1] <= '9') --digits;
  out.prefix = std::string(base.substr(0, digits));
  out.number = std::string(base.substr(digits));
  return out;
}

}  // namespace gpucmp::ptx

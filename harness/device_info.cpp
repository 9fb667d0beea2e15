#include "device_info.h"

#include <cstdio>

namespace gpucmp {

std::string pci_id(int domain, int bus, int device) {
  char id[32];
  std::snprintf(id, sizeof id, "%04x:%02x:%02x", domain, bus, device);
  return id;
}

int fp32_lanes_per_sm(int major, int minor) {
  switch (major) {
    case 5:
      return 128;  // Maxwell
    case 6:
      return minor == 0 ? 64 : 128;  // GP100 64, GP10x 128
    case 7:
      return 64;  // Volta, Turing
    case 8:
      return minor == 0 ? 64 : 128;  // GA100 64, GA10x / Ada 128
    case 9:
    case 10:
    case 12:
      return 128;  // Hopper (9), Blackwell (10, 12)
    default:
      return 0;
  }
}

double fp32_fma_peak_gflops(int sms, int major, int minor, double clock_mhz) {
  return double(sms) * fp32_lanes_per_sm(major, minor) * 2.0 * clock_mhz * 1e-3;
}

double pcie_peak_gbps(int generation, int width) {
  static const double kGtPerLane[] = {0, 2.5, 5, 8, 16, 32, 64};
  if (generation < 1 || generation > 6 || width <= 0) return 0;
  const double encoding = generation <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
  return kGtPerLane[generation] * encoding * width / 8.0;
}

}  // namespace gpucmp

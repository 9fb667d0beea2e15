// Facts only NVML knows (PCIe link, driver version string), read through a
// run-time dlopen of libnvidia-ml.so.1 so that gpucmp runs where it is absent.
#pragma once
#include <string>

namespace gpucmp::cuda {

struct NvmlFacts {
  int pcie_generation = 0;  // maximum link generation of device + system; 0 unknown
  int pcie_width = 0;
  std::string driver_version;  // "580.95.05"; empty unknown
};

// `pci_bus_id` as cudaDeviceGetPCIBusId gives it.
NvmlFacts nvml_facts(const std::string& pci_bus_id);

}  // namespace gpucmp::cuda

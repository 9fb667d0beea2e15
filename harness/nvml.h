// What only NVML knows of an NVIDIA device (PCIe link, driver version, clocks,
// temperature, power, throttle reasons), read through a run-time dlopen of
// libnvidia-ml.so.1 so that gpucmp runs where it is absent. API-neutral: a CUDA
// and an OpenCL row on the same device find it by the same PCI bus id.
#pragma once
#include <string>

namespace gpucmp {

struct NvmlFacts {
  int pcie_generation = 0;  // maximum link generation of device + system; 0 unknown
  int pcie_width = 0;
  std::string driver_version;  // "580.95.05"; empty unknown
};

// `pci_bus_id` in any form ClockMonitor takes; the driver version is filled in
// whenever NVML initializes, even if no device matches.
NvmlFacts nvml_facts(const std::string& pci_bus_id);

// One reading of a device's clocks and sensors; fields < 0 when NVML could not say.
struct ClockReading {
  double sm_mhz = -1, mem_mhz = -1;          // current SM / memory clock
  double sm_max_mhz = -1, mem_max_mhz = -1;  // maximum clocks
  double temp_c = -1;                        // GPU temperature
  double power_w = -1;                       // power draw
  unsigned long long throttle_reasons = 0;   // NVML clocks-event reason bits; 0 unknown
};

// A handle on one device, found by PCI bus id: "0000:1b:00.0", "0000:1b:00"
// (pci_id()), or NVML's own "00000000:1B:00.0"; case does not matter.
class ClockMonitor {
 public:
  explicit ClockMonitor(const std::string& pci_bus_id);

  // False when libnvidia-ml.so.1 is absent, NVML init fails or no device
  // matches; why() then says which, in one line (empty when available).
  bool available() const { return device_ != nullptr; }
  const std::string& why() const { return why_; }

  ClockReading read() const;  // all fields; cheap enough to call once per benchmark
  double sm_mhz() const;      // the current SM clock only, for sampling; -1 unknown

 private:
  void* device_ = nullptr;  // nvmlDevice_t: owned by NVML, valid until shutdown
  std::string why_;
};

}  // namespace gpucmp

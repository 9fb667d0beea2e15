// What the harness needs to know of a device, whichever API it came from.
#pragma once
#include <string>

namespace gpucmp {

struct DeviceInfo {
  std::string api;                 // "cuda" | "opencl"
  std::string name;                // "NVIDIA H200"
  std::string vendor;              // "NVIDIA Corporation"
  std::string driver;              // driver version as the API reports it
  std::string pci_bus_id;          // "0000:1b:00.0" where known: pairs a CUDA and an OpenCL device
  int compute_units = 0;           // SMs (CUDA, NVIDIA OpenCL) or compute units
  double max_clock_mhz = 0;        // maximum SM / core clock
  int cc_major = 0, cc_minor = 0;  // NVIDIA compute capability; 0 elsewhere
  long long l2_bytes = 0;          // last-level device cache the cold mode flushes; 0 unknown
  // Work-group / block limits (0 unknown): work-items in all and along x, y.
  int max_group_size = 0, max_group_x = 0, max_group_y = 0;
  // Bytes a kernel's arguments may take in all (OpenCL's
  // CL_DEVICE_MAX_PARAMETER_SIZE); 0 where the API states none (CUDA).
  long long max_parameter_bytes = 0;
  // Processing elements of one compute unit: FP32 lanes per SM on NVIDIA,
  // the preferred float vector width on other OpenCL devices; 0 unknown.
  int lanes_per_cu = 0;
  // The AGPU model's b and M: threads of a warp (0 unknown), and
  // shared (local) memory of one compute unit in bytes as the API reports
  // it, with how (`local_bytes_source`).
  int warp_size = 0;
  long long local_bytes_per_cu = 0;
  std::string local_bytes_source;

  // Peaks for pct_peak; 0 where unknown (then pct_peak is not reported).
  double fp32_peak_gflops = 0;  // SMs x FP32 lanes/SM x 2 (FMA) x max clock
  double dram_peak_gbps = 0;    // 2 x memory clock x bus width / 8
  double link_peak_gbps = 0;    // host link (PCIe) per direction
  std::string peak_note;        // how the peaks were derived, stated in the context
};

// "domain:bus:device" in lower-case hex, the form both APIs' ids are compared in.
std::string pci_id(int domain, int bus, int device);

// FP32 lanes per SM of an NVIDIA compute capability; 0 when not known.
int fp32_lanes_per_sm(int cc_major, int cc_minor);

// SMs x lanes x 2 flop (FMA) x clock, in GFLOP/s; 0 when lanes are unknown.
double fp32_fma_peak_gflops(int sms, int cc_major, int cc_minor, double clock_mhz);

// PCIe bandwidth per direction in GB/s for a link generation and width, after
// line encoding (8b/10b for gen 1-2, 128b/130b for gen 3+); 0 when unknown.
double pcie_peak_gbps(int generation, int width);

}  // namespace gpucmp

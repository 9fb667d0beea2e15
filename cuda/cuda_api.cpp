#include "cuda_api.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>

#include "agpu_parameters.h"
#include "api_registry.h"
#include "check.h"
#include "cross_runners.h"
#include "errors.h"
#include "nvml.h"
#include "ptx_load.h"
#include "split_group.h"

namespace gpucmp::cuda {

namespace {

std::string version_string(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

int attribute(cudaDeviceAttr a, int dev) {
  int v = 0;
  check(cudaDeviceGetAttribute(&v, a, dev), "cudaDeviceGetAttribute",
        "device " + std::to_string(dev));
  return v;
}

class CudaApi : public Api {
 public:
  std::string name() const override { return "cuda"; }

  void list_devices(std::ostream& out) const override {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      out << "CUDA: no device (cudaGetDeviceCount: " << describe(err) << ")\n";
      return;
    }
    for (int d = 0; d < count; ++d) {
      cudaDeviceProp p{};
      check(cudaGetDeviceProperties(&p, d), "cudaGetDeviceProperties", std::to_string(d));
      out << "CUDA device " << d << ": " << p.name << " | sm_" << p.major << p.minor << " | "
          << p.multiProcessorCount << " SMs | " << (p.totalGlobalMem >> 20) << " MiB\n";
    }
  }

  void select(const Options& opts) override {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
      why_ = "no CUDA device (cudaGetDeviceCount: " +
             (err != cudaSuccess ? describe(err) : std::string("0 devices")) + ")";
      cudaGetLastError();  // clear the sticky-free error state
      if (opts.cuda_device >= 0)
        throw UsageError("unknown CUDA device " + std::to_string(opts.cuda_device) +
                         " (no CUDA device found)");
      if (!opts.split.cuda_devices.empty())  // refused as --cuda-device is
        throw UsageError("--cuda-split-devices " + std::to_string(opts.split.cuda_devices[0]) +
                         ": unknown CUDA device (no CUDA device found)");
      return;
    }
    if (opts.cuda_device >= count)
      throw UsageError("unknown CUDA device " + std::to_string(opts.cuda_device) + " (" +
                       std::to_string(count) + " found; see --list-devices)");
    device_ = std::max(opts.cuda_device, 0);
    check(cudaSetDevice(device_), "cudaSetDevice", std::to_string(device_));
    info_ = describe_device(device_);
    if (opts.split.wants_group()) split_ = make_split_group(opts.split.cuda_devices, count);
  }

  double ptx_load_ms(const std::string& workload, const std::string& variant) override {
    const std::string ptx = variant_ptx(workload, variant);
    if (ptx.empty()) return -1;
    return load_ptx_module_ms(ptx, "nvcc PTX of " + workload + "/" + variant);
  }

  std::string unavailable() const override { return why_; }

  // Cross-run rows: whose PTX runs, and the pair's variant.
  std::string variant_label(const std::string&, const std::string& variant) const override {
    for (const std::string tail : {"-opencl-ptx", "-ptx-jit"})
      if (variant.size() > tail.size() &&
          variant.compare(variant.size() - tail.size(), tail.size(), tail) == 0)
        return "from=" + tail.substr(1) +
               "; base=" + variant.substr(0, variant.size() - tail.size());
    return "";
  }
  DeviceInfo info() const override { return info_; }
  const DeviceGroup* split_group() const override { return split_.get(); }

  // gpucmp's own kernels; cuBLAS loads its library kernels its own way.
  bool has_startup(const std::string&, const std::string& variant) const override {
    // Cross-run rows report their JIT as build_ms; a startup row would load
    // nvcc's PTX under their name (ptx_load_ms), the wrong label.
    return variant != "cublas" && !is_cross_variant(variant);
  }

  // A new primary context: with lazy module loading (CUDA_MODULE_LOADING=LAZY,
  // the default since CUDA 12.2) each kernel's module is loaded again at its
  // first launch, which the startup benchmark times. Creating the context
  // (cudaSetDevice does since CUDA 12) is timed apart and returned.
  double start_fresh() override {
    check(cudaDeviceReset(), "cudaDeviceReset", "device " + std::to_string(device_));
    const auto t0 = std::chrono::steady_clock::now();
    check(cudaSetDevice(device_), "cudaSetDevice", std::to_string(device_));
    check(cudaFree(nullptr), "cudaFree(0)", "context creation");
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  void add_context(ContextList& ctx) const override {
    ctx.emplace_back("cuda.nvcc_version", GPUCMP_NVCC_VERSION);
    ctx.emplace_back("cuda.nvcc_flags", GPUCMP_NVCC_FLAGS);
    ctx.emplace_back("cuda.nvcc_fast_flags", GPUCMP_NVCC_FAST_FLAGS);
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    ctx.emplace_back("cuda.runtime_version", version_string(runtime));
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver)
      ctx.emplace_back("cuda.driver_api_version", version_string(driver));
    if (!why_.empty()) return;
    ctx.emplace_back("cuda.device", info_.name);
    ctx.emplace_back("cuda.device_index", std::to_string(device_));
    ctx.emplace_back("cuda.compute_capability",
                     std::to_string(info_.cc_major) + "." + std::to_string(info_.cc_minor));
    ctx.emplace_back("cuda.sm_count", std::to_string(info_.compute_units));
    ctx.emplace_back("cuda.max_sm_clock_mhz", std::to_string(int(info_.max_clock_mhz)));
    ctx.emplace_back("cuda.driver", info_.driver);
    ctx.emplace_back("cuda.pci_bus_id", info_.pci_bus_id);
    add_agpu_parameters(ctx, info_);
    if (split_) ctx.emplace_back("cuda.split_devices", describe_group(*split_));
  }

 private:
  int device_ = 0;
  std::string why_;
  DeviceInfo info_;
  std::unique_ptr<DeviceGroup> split_;
};

}  // namespace

DeviceInfo describe_device(int device) {
  DeviceInfo info;
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties", std::to_string(device));
  info.api = "cuda";
  info.name = p.name;
  info.vendor = "NVIDIA";
  info.compute_units = p.multiProcessorCount;
  info.cc_major = p.major;
  info.cc_minor = p.minor;
  info.max_clock_mhz = attribute(cudaDevAttrClockRate, device) * 1e-3;
  info.pci_bus_id = pci_id(p.pciDomainID, p.pciBusID, p.pciDeviceID);
  info.fp32_peak_gflops =
      fp32_fma_peak_gflops(p.multiProcessorCount, p.major, p.minor, info.max_clock_mhz);
  const double mem_khz = attribute(cudaDevAttrMemoryClockRate, device);
  const double bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  info.dram_peak_gbps = 2.0 * mem_khz * 1e3 * bus_bits / 8.0 * 1e-9;
  info.l2_bytes = attribute(cudaDevAttrL2CacheSize, device);
  info.max_group_size = p.maxThreadsPerBlock;
  info.max_group_x = p.maxThreadsDim[0];
  info.max_group_y = p.maxThreadsDim[1];
  info.lanes_per_cu = fp32_lanes_per_sm(p.major, p.minor);
  info.warp_size = p.warpSize;
  info.local_bytes_per_cu = (long long)p.sharedMemPerMultiprocessor;
  info.local_bytes_source = "cudaDeviceProp::sharedMemPerMultiprocessor";
  char bus_id[32] = {};
  cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device);
  const NvmlFacts nvml = gpucmp::nvml_facts(bus_id);
  info.link_peak_gbps = pcie_peak_gbps(nvml.pcie_generation, nvml.pcie_width);
  int driver = 0;
  cudaDriverGetVersion(&driver);
  info.driver =
      nvml.driver_version.empty() ? "CUDA " + version_string(driver) : nvml.driver_version;
  info.peak_note = "FP32: SMs x FP32 lanes/SM of sm_" + std::to_string(p.major) +
                   std::to_string(p.minor) +
                   " x 2 (FMA) x max SM clock; DRAM: 2 x memory clock x bus width; link: "
                   "PCIe gen " +
                   std::to_string(nvml.pcie_generation) + " x" + std::to_string(nvml.pcie_width) +
                   " per direction (NVML; 0 unknown)";
  return info;
}

std::unique_ptr<Api> make_api() { return std::make_unique<CudaApi>(); }

GPUCMP_API(cuda, 0, make_api, nullptr);

}  // namespace gpucmp::cuda

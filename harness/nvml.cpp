#include "nvml.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>

namespace gpucmp {

namespace {

// The few NVML types, constants and entry points used, by their documented C
// signatures (nvml.h is not needed at build time; enums are passed as int).
using nvmlDevice = void*;                   // nvmlDevice_t
constexpr int kSuccess = 0;                 // NVML_SUCCESS
constexpr int kClockSm = 1, kClockMem = 2;  // NVML_CLOCK_SM, NVML_CLOCK_MEM
constexpr int kTemperatureGpu = 0;          // NVML_TEMPERATURE_GPU

using VoidFn = int (*)();
using ErrorStringFn = const char* (*)(int);
using ByPciFn = int (*)(const char*, nvmlDevice*);
using UIntFn = int (*)(nvmlDevice, unsigned*);
using KindUIntFn = int (*)(nvmlDevice, int, unsigned*);
using ReasonsFn = int (*)(nvmlDevice, unsigned long long*);
using DriverFn = int (*)(char*, unsigned);

template <class F>
F symbol(void* lib, const char* name) {
  return reinterpret_cast<F>(dlsym(lib, name));
}

// libnvidia-ml.so.1, opened and initialized once per process on first use;
// shut down and closed at exit. Entry points are null where the library lacks them.
class Nvml {
 public:
  static const Nvml& get() {
    static const Nvml nvml;
    return nvml;
  }
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  bool ready() const { return ready_; }
  const std::string& why() const { return why_; }  // why not ready, one line

  // "nvmlFoo: NVML error 6 (Not Found)".
  std::string error(const char* call, int code) const {
    std::string text = std::string(call) + ": NVML error " + std::to_string(code);
    if (error_string_) text += std::string(" (") + error_string_(code) + ")";
    return text;
  }

  ByPciFn by_pci = nullptr;
  UIntFn pcie_generation = nullptr, pcie_width = nullptr, power_mw = nullptr;
  KindUIntFn clock_mhz = nullptr, max_clock_mhz = nullptr, temperature = nullptr;
  ReasonsFn clock_reasons = nullptr;
  DriverFn driver_version = nullptr;

 private:
  Nvml() {
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib_) {
      const char* err = dlerror();
      why_ = std::string("libnvidia-ml.so.1 not loaded: ") + (err ? err : "dlopen failed");
      return;
    }
    error_string_ = symbol<ErrorStringFn>(lib_, "nvmlErrorString");
    shutdown_ = symbol<VoidFn>(lib_, "nvmlShutdown");
    by_pci = symbol<ByPciFn>(lib_, "nvmlDeviceGetHandleByPciBusId_v2");
    pcie_generation = symbol<UIntFn>(lib_, "nvmlDeviceGetMaxPcieLinkGeneration");
    pcie_width = symbol<UIntFn>(lib_, "nvmlDeviceGetMaxPcieLinkWidth");
    power_mw = symbol<UIntFn>(lib_, "nvmlDeviceGetPowerUsage");
    clock_mhz = symbol<KindUIntFn>(lib_, "nvmlDeviceGetClockInfo");
    max_clock_mhz = symbol<KindUIntFn>(lib_, "nvmlDeviceGetMaxClockInfo");
    temperature = symbol<KindUIntFn>(lib_, "nvmlDeviceGetTemperature");
    clock_reasons = symbol<ReasonsFn>(lib_, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!clock_reasons)  // drivers before 535 name it by throttling
      clock_reasons = symbol<ReasonsFn>(lib_, "nvmlDeviceGetCurrentClocksThrottleReasons");
    driver_version = symbol<DriverFn>(lib_, "nvmlSystemGetDriverVersion");
    const auto init = symbol<VoidFn>(lib_, "nvmlInit_v2");
    if (!init) {
      why_ = "libnvidia-ml.so.1 has no nvmlInit_v2";
      return;
    }
    if (const int rc = init(); rc != kSuccess) {
      why_ = error("nvmlInit_v2", rc);
      return;
    }
    ready_ = true;
  }

  ~Nvml() {
    if (ready_ && shutdown_) shutdown_();
    if (lib_) dlclose(lib_);
  }

  void* lib_ = nullptr;
  bool ready_ = false;
  std::string why_;
  ErrorStringFn error_string_ = nullptr;
  VoidFn shutdown_ = nullptr;
};

// NVML's own form of a bus id, "00000000:1B:00.0", from "domain:bus:device[.function]"
// in hex, any case and domain width; empty when `id` is not of that form.
std::string nvml_bus_id(const std::string& id) {
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  int end = 0;
  if (std::sscanf(id.c_str(), "%x:%x:%x%n.%x%n", &domain, &bus, &device, &end, &function, &end) <
          3 ||
      std::size_t(end) != id.size())
    return {};
  char text[32];
  std::snprintf(text, sizeof text, "%08X:%02X:%02X.%X", domain, bus, device, function);
  return text;
}

// The device with bus id `id`, or null with `why` set (NVML must be ready).
nvmlDevice find_device(const Nvml& nvml, const std::string& id, std::string& why) {
  if (!nvml.by_pci) {
    why = "libnvidia-ml.so.1 has no nvmlDeviceGetHandleByPciBusId_v2";
    return nullptr;
  }
  nvmlDevice device = nullptr;
  const std::string canonical = nvml_bus_id(id);
  int rc = canonical.empty() ? -1 : nvml.by_pci(canonical.c_str(), &device);
  if (rc != kSuccess && canonical != id) rc = nvml.by_pci(id.c_str(), &device);
  if (rc == kSuccess) return device;
  why = "no NVML device with PCI bus id '" + id + "' (" +
        nvml.error("nvmlDeviceGetHandleByPciBusId_v2", rc) + ")";
  return nullptr;
}

// One unsigned reading x `scale`, or -1 where the entry point is missing or fails.
double reading(UIntFn fn, nvmlDevice device, double scale = 1) {
  unsigned v = 0;
  return fn && fn(device, &v) == kSuccess ? v * scale : -1;
}
double reading(KindUIntFn fn, nvmlDevice device, int kind) {
  unsigned v = 0;
  return fn && fn(device, kind, &v) == kSuccess ? double(v) : -1;
}

}  // namespace

NvmlFacts nvml_facts(const std::string& pci_bus_id) {
  NvmlFacts facts;
  const Nvml& nvml = Nvml::get();
  if (!nvml.ready()) return facts;
  char version[96] = {};
  if (nvml.driver_version && nvml.driver_version(version, sizeof version) == kSuccess)
    facts.driver_version = version;
  std::string why;
  const nvmlDevice device = find_device(nvml, pci_bus_id, why);
  if (!device) return facts;
  const auto known = [&](UIntFn fn) { return std::max(0, int(reading(fn, device))); };
  facts.pcie_generation = known(nvml.pcie_generation);
  facts.pcie_width = known(nvml.pcie_width);
  return facts;
}

ClockMonitor::ClockMonitor(const std::string& pci_bus_id) {
  const Nvml& nvml = Nvml::get();
  if (!nvml.ready()) {
    why_ = nvml.why();
    return;
  }
  device_ = find_device(nvml, pci_bus_id, why_);
}

ClockReading ClockMonitor::read() const {
  ClockReading r;
  if (!available()) return r;
  const Nvml& nvml = Nvml::get();
  r.sm_mhz = reading(nvml.clock_mhz, device_, kClockSm);
  r.mem_mhz = reading(nvml.clock_mhz, device_, kClockMem);
  r.sm_max_mhz = reading(nvml.max_clock_mhz, device_, kClockSm);
  r.mem_max_mhz = reading(nvml.max_clock_mhz, device_, kClockMem);
  r.temp_c = reading(nvml.temperature, device_, kTemperatureGpu);
  r.power_w = reading(nvml.power_mw, device_, 1e-3);  // milliwatts
  unsigned long long reasons = 0;
  if (nvml.clock_reasons && nvml.clock_reasons(device_, &reasons) == kSuccess)
    r.throttle_reasons = reasons;
  return r;
}

double ClockMonitor::sm_mhz() const {
  return available() ? reading(Nvml::get().clock_mhz, device_, kClockSm) : -1;
}

}  // namespace gpucmp

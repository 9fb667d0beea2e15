#include "nvml_link.h"

#include <dlfcn.h>

namespace gpucmp::cuda {

namespace {
// The few NVML entry points used, by their documented C signatures.
using nvmlDevice = void*;
using InitFn = int (*)();
using ByPciFn = int (*)(const char*, nvmlDevice*);
using UIntFn = int (*)(nvmlDevice, unsigned*);
using DriverFn = int (*)(char*, unsigned);

template <class F>
F symbol(void* lib, const char* name) {
  return reinterpret_cast<F>(dlsym(lib, name));
}
}  // namespace

NvmlFacts nvml_facts(const std::string& pci_bus_id) {
  NvmlFacts facts;
  static void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return facts;
  auto init = symbol<InitFn>(lib, "nvmlInit_v2");
  auto by_pci = symbol<ByPciFn>(lib, "nvmlDeviceGetHandleByPciBusId_v2");
  auto gen = symbol<UIntFn>(lib, "nvmlDeviceGetMaxPcieLinkGeneration");
  auto width = symbol<UIntFn>(lib, "nvmlDeviceGetMaxPcieLinkWidth");
  auto driver = symbol<DriverFn>(lib, "nvmlSystemGetDriverVersion");
  if (!init || init() != 0) return facts;
  char version[96] = {};
  if (driver && driver(version, sizeof version) == 0) facts.driver_version = version;
  nvmlDevice dev = nullptr;
  if (!by_pci || by_pci(pci_bus_id.c_str(), &dev) != 0) return facts;
  unsigned g = 0, w = 0;
  if (gen && gen(dev, &g) == 0) facts.pcie_generation = int(g);
  if (width && width(dev, &w) == 0) facts.pcie_width = int(w);
  return facts;
}

}  // namespace gpucmp::cuda

// What each programming model (cuda/, opencl/) provides to the driver besides
// its runners: device listing and choice, device facts, JSON context.
#pragma once
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "device_group.h"
#include "device_info.h"
#include "options.h"

namespace gpucmp {

using ContextList = std::vector<std::pair<std::string, std::string>>;

class Api {
 public:
  virtual ~Api() = default;
  virtual std::string name() const = 0;
  virtual void list_devices(std::ostream& out) const = 0;
  // Chooses the device the options name. Throws UsageError for a device that does
  // not exist; when the API has no device at all, unavailable() says why.
  virtual void select(const Options& opts) = 0;
  // Empty when the selected device is usable; else the one-line reason.
  virtual std::string unavailable() const = 0;
  virtual DeviceInfo info() const = 0;
  // Versions, device, build options: keys are prefixed with the API name.
  virtual void add_context(ContextList& ctx) const = 0;
  // Takes the memory and link peaks of `same_gpu`, the same physical device seen
  // through another API (APIs that cannot query them themselves override this).
  virtual void adopt_peaks(const DeviceInfo& same_gpu) { (void)same_gpu; }

  // The devices of the split rows (--split): those --cuda-split-devices /
  // --cl-split-devices name, else every device of the API (OpenCL: of the
  // selected platform), chosen in select(); null when the API has no device
  // or --split was not given.
  virtual const DeviceGroup* split_group() const { return nullptr; }

  // Startup benchmarks (harness/startup.h). Whether `variant` of `workload`
  // gets one: kernels the API itself compiles or loads (not vendor libraries).
  virtual bool has_startup(const std::string& workload, const std::string& variant) const = 0;
  // Forgets every compiled program / loaded module, so that the next runner
  // pays its build (OpenCL) or module load (CUDA) again. Returns the ms spent
  // re-creating what had to be re-created (the CUDA context), not part of the
  // startup time; 0 when nothing was.
  virtual double start_fresh() = 0;
  // Milliseconds to load `variant`'s kernels from PTX, where the API has a
  // path for it apart from its startup benchmark's (CUDA: nvcc's PTX through
  // cudaLibraryLoadData, the driver's JIT); negative when it has none.
  virtual double ptx_load_ms(const std::string& workload, const std::string& variant) {
    (void)workload;
    (void)variant;
    return -1;
  }
  // How the API builds `variant` of `workload`, as "key=value; ..." (OpenCL:
  // from, base, options, passes, chain, step of its program; CUDA's cross-run
  // rows: from, base), written as the timed row's label; empty for none.
  virtual std::string variant_label(const std::string& workload, const std::string& variant) const {
    (void)workload;
    (void)variant;
    return "";
  }
};

// The APIs of this build, by name ("cuda", "opencl").
using ApiSet = std::map<std::string, Api*>;

}  // namespace gpucmp

#include "opencl_api.h"

#include "agpu_parameters.h"
#include "api_registry.h"
#include "cross_ptx.h"
#include "cross_ptx_source.h"
#include "errors.h"
#include "kernel_args.h"
#include "programs.h"
#include "ptx/pass_registry.h"
#include "session.h"
#include "split_group.h"

namespace gpucmp::opencl {

namespace {

class OpenClApi : public Api {
 public:
  std::string name() const override { return "opencl"; }

  void list_devices(std::ostream& out) const override {
    const auto found = platforms();
    if (found.empty()) out << "OpenCL: no platform (no ICD registered)\n";
    for (std::size_t p = 0; p < found.size(); ++p) {
      out << "OpenCL platform " << p << ": " << platform_info(found[p], CL_PLATFORM_NAME) << " ("
          << platform_info(found[p], CL_PLATFORM_VERSION) << ")\n";
      const auto devs = devices(found[p]);
      for (std::size_t d = 0; d < devs.size(); ++d)
        out << "  device " << d << ": " << device_info(devs[d], CL_DEVICE_NAME) << " | driver "
            << device_info(devs[d], CL_DRIVER_VERSION) << " | "
            << device_info(devs[d], CL_DEVICE_VERSION) << "\n";
    }
    const std::string hint = nvidia_icd_hint(found);
    if (!hint.empty()) out << "  note: " << hint << "\n";
  }

  void select(const Options& opts) override {
    const auto found = platforms();
    if (found.empty()) {
      why_ =
          "no OpenCL platform found (clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR): "
          "install an ICD such as pocl-opencl-icd or the NVIDIA driver's";
      return;
    }
    hint_ = nvidia_icd_hint(found);
    int p = opts.cl_platform, d = opts.cl_device;
    if (p >= int(found.size()))
      throw UsageError("unknown OpenCL platform " + std::to_string(p) + " (" +
                       std::to_string(found.size()) + " found; see --list-devices)");
    if (p < 0) p = default_platform(found);
    const auto devs = devices(found[p]);
    if (d >= int(devs.size()) || (d >= 0 && devs.empty()))
      throw UsageError("unknown OpenCL device " + std::to_string(d) + " on platform " +
                       std::to_string(p) + " (" + std::to_string(devs.size()) +
                       " found; see --list-devices)");
    if (devs.empty()) {
      why_ = "OpenCL platform " + std::to_string(p) + " has no device";
      return;
    }
    if (d < 0) d = 0;
    Session::set_user_build_options(opts.cl_build_options);
    set_kernel_args_mode(opts.cl_args_every_launch ? KernelArgsMode::every
                                                   : KernelArgsMode::changed);
    set_session(std::make_unique<Session>(found[p], devs[d], opts.cl_kernel_dir));
    session().check_user_build_options();
    platform_index_ = p;
    device_index_ = d;
    if (opts.split.wants_group())
      split_ = make_split_group(opts.split.cl_devices, p, opts.cl_kernel_dir);
  }

  std::string unavailable() const override { return why_; }
  DeviceInfo info() const override { return session().info(); }
  const DeviceGroup* split_group() const override { return split_.get(); }

  void adopt_peaks(const DeviceInfo& same) override {
    DeviceInfo& info = session().info();
    info.dram_peak_gbps = same.dram_peak_gbps;
    info.link_peak_gbps = same.link_peak_gbps;
    info.l2_bytes = same.l2_bytes;
    info.peak_note +=
        "; memory and link peaks and the L2 size from the CUDA device of the same PCI bus id";
  }

  // Programs built from source, and the reloaded PTX they produced: the two
  // build paths a user of OpenCL pays for (not the study's PTX variants).
  bool has_startup(const std::string& workload, const std::string& variant) const override {
    for (const ProgramSpec& s : program_specs())
      if (s.workload == workload && s.variant == variant)
        return s.from == ProgramFrom::source || s.from == ProgramFrom::ptx_as_built ||
               s.from == ProgramFrom::ptx_from_nvcc;
    return false;  // vendor libraries (CLBlast)
  }

  double start_fresh() override {
    session().forget_programs();
    return 0;
  }

  std::string variant_label(const std::string& workload,
                            const std::string& variant) const override {
    for (const ProgramSpec& s : program_specs())
      if (s.workload == workload && s.variant == variant) return describe(s);
    return "";  // vendor libraries (CLBlast), copies (bandwidth)
  }

  void add_context(ContextList& ctx) const override {
    if (!hint_.empty()) ctx.emplace_back("opencl.icd_hint", hint_);
    // The PTX passes the labels' "passes=" name (ptx/pass_registry.h).
    for (const ptx::PassInfo& pass : ptx::pass_registry())
      ctx.emplace_back("opencl.ptx_pass." + pass.name, pass.description);
    if (!why_.empty()) return;
    Session& s = session();
    ctx.emplace_back("opencl.platform", platform_info(s.platform(), CL_PLATFORM_NAME));
    ctx.emplace_back("opencl.platform_version", platform_info(s.platform(), CL_PLATFORM_VERSION));
    ctx.emplace_back("opencl.platform_index", std::to_string(platform_index_));
    ctx.emplace_back("opencl.device", s.info().name);
    ctx.emplace_back("opencl.device_index", std::to_string(device_index_));
    ctx.emplace_back("opencl.device_version", device_info(s.device(), CL_DEVICE_VERSION));
    ctx.emplace_back("opencl.c_version", device_info(s.device(), CL_DEVICE_OPENCL_C_VERSION));
    ctx.emplace_back("opencl.driver", s.info().driver);
    ctx.emplace_back("opencl.build_options", Session::common_build_options());
    ctx.emplace_back("opencl.kernel_args", to_string(kernel_args_mode()));
    ctx.emplace_back("opencl.fast_build_options",
                     std::string(Session::common_build_options()) + " -cl-fast-relaxed-math");
    // Every OpenCL row of this file was built with them as well: a cross-run.
    if (!Session::user_build_options().empty())
      ctx.emplace_back("opencl.user_build_options", Session::user_build_options());
    if (!s.info().pci_bus_id.empty()) ctx.emplace_back("opencl.pci_bus_id", s.info().pci_bus_id);
    add_agpu_parameters(ctx, s.info());
    if (split_) ctx.emplace_back("opencl.split_devices", describe_group(*split_));
  }

 private:
  static int default_platform(const std::vector<cl_platform_id>& found) {
    for (std::size_t i = 0; i < found.size(); ++i)
      if (platform_info(found[i], CL_PLATFORM_NAME).find("NVIDIA") != std::string::npos)
        return int(i);
    for (std::size_t i = 0; i < found.size(); ++i) {
      cl_uint n = 0;
      if (clGetDeviceIDs(found[i], CL_DEVICE_TYPE_GPU, 0, nullptr, &n) == CL_SUCCESS && n)
        return int(i);
    }
    return 0;
  }

  std::string why_, hint_;
  int platform_index_ = -1, device_index_ = -1;
  std::unique_ptr<DeviceGroup> split_;
};

}  // namespace

std::unique_ptr<Api> make_api() { return std::make_unique<OpenClApi>(); }

namespace {
// The bridge of harness/cross_ptx.h: CUDA's cross-run rows <variant>-opencl-ptx
// run OpenCL's PTX of the same program.
void install_cross_ptx_source() { cross_ptx::set_opencl_source(program_ptx); }
}  // namespace

GPUCMP_API(opencl, 1, make_api, install_cross_ptx_source);

}  // namespace gpucmp::opencl

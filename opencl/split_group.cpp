#include "split_group.h"

#include <algorithm>
#include <mutex>

#include "check.h"
#include "errors.h"
#include "session.h"

namespace gpucmp::opencl {

namespace {

// One context over every device of a group (each device once), with a
// session per part in it: made on the first in_shared_context() of any part,
// once, while the parts' threads may ask at the same time.
class SharedContext {
 public:
  SharedContext(std::vector<cl_platform_id> platforms, std::vector<cl_device_id> devices,
                std::string kernel_dir)
      : platforms_(std::move(platforms)),
        devices_(std::move(devices)),
        kernel_dir_(std::move(kernel_dir)) {}

  Session& session(int i) {
    std::call_once(made_, [this] { make(); });
    return *sessions_.at(std::size_t(i));
  }

 private:
  void make() {
    for (cl_platform_id p : platforms_)
      if (p != platforms_.front())
        throw Unavailable(
            "one context over several devices needs them on one OpenCL platform "
            "(--cl-split-devices lists devices of several)");
    std::vector<cl_device_id> unique;
    for (cl_device_id d : devices_)
      if (std::find(unique.begin(), unique.end(), d) == unique.end()) unique.push_back(d);
    cl_int err = CL_SUCCESS;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           cl_context_properties(platforms_.front()), 0};
    Context context(
        clCreateContext(props, cl_uint(unique.size()), unique.data(), nullptr, nullptr, &err));
    check(err, "clCreateContext", std::to_string(unique.size()) + " devices of the split group");
    for (std::size_t i = 0; i < devices_.size(); ++i)
      sessions_.push_back(
          std::make_unique<Session>(platforms_[i], devices_[i], kernel_dir_, context.get()));
  }

  std::vector<cl_platform_id> platforms_;
  std::vector<cl_device_id> devices_;
  std::string kernel_dir_;
  std::once_flag made_;
  std::vector<std::unique_ptr<Session>> sessions_;
};

class ClDeviceGroup final : public DeviceGroup {
 public:
  int size() const override { return int(sessions_.size()); }
  const DeviceInfo& info(int i) const override { return sessions_.at(i)->info(); }
  std::string id(int i) const override {
    return "opencl:" + std::to_string(ids_.at(i).platform) + ":" +
           std::to_string(ids_.at(i).device);
  }
  void enter(int i) const override { use_session_on_this_thread(sessions_.at(i).get()); }

  void add(const ClDeviceIndex& id, std::unique_ptr<Session> s) {
    ids_.push_back(id);
    sessions_.push_back(std::move(s));
  }
  // Every session's in_shared_context(): its device's session in one context
  // over all of the group's.
  void share_context(const std::string& kernel_dir) {
    std::vector<cl_platform_id> platforms;
    std::vector<cl_device_id> devices;
    for (const auto& s : sessions_) {
      platforms.push_back(s->platform());
      devices.push_back(s->device());
    }
    shared_ = std::make_unique<SharedContext>(platforms, devices, kernel_dir);
    for (std::size_t i = 0; i < sessions_.size(); ++i)
      sessions_[i]->set_shared_context(
          [shared = shared_.get(), i]() -> Session& { return shared->session(int(i)); });
  }

 private:
  std::vector<ClDeviceIndex> ids_;
  std::unique_ptr<SharedContext> shared_;  // before sessions_, whose hooks point at it
  std::vector<std::unique_ptr<Session>> sessions_;
};

}  // namespace

std::unique_ptr<DeviceGroup> make_split_group(const std::vector<ClDeviceIndex>& listed,
                                              int default_platform, const std::string& kernel_dir) {
  const auto found = platforms();
  std::vector<ClDeviceIndex> chosen = listed;
  if (chosen.empty() && default_platform >= 0 && default_platform < int(found.size()))
    for (int d = 0; d < int(devices(found[default_platform]).size()); ++d)
      chosen.push_back({default_platform, d});
  auto group = std::make_unique<ClDeviceGroup>();
  for (const ClDeviceIndex& id : chosen) {
    const std::string name = std::to_string(id.platform) + ":" + std::to_string(id.device);
    if (id.platform >= int(found.size()))
      throw UsageError("--cl-split-devices " + name + ": no such OpenCL platform (" +
                       std::to_string(found.size()) + " found; see --list-devices)");
    const auto devs = devices(found[id.platform]);
    if (id.device >= int(devs.size()))
      throw UsageError("--cl-split-devices " + name + ": no such device on platform " +
                       std::to_string(id.platform) + " (" + std::to_string(devs.size()) +
                       " found; see --list-devices)");
    group->add(id, std::make_unique<Session>(found[id.platform], devs[id.device], kernel_dir));
  }
  group->share_context(kernel_dir);
  return group;
}

}  // namespace gpucmp::opencl

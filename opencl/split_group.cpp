#include "split_group.h"

#include "errors.h"
#include "session.h"

namespace gpucmp::opencl {

namespace {

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

 private:
  std::vector<ClDeviceIndex> ids_;
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
  return group;
}

}  // namespace gpucmp::opencl

#include "split_group.h"

#include <cuda_runtime.h>

#include "check.h"
#include "cuda_api.h"
#include "errors.h"

namespace gpucmp::cuda {

namespace {

class CudaDeviceGroup final : public DeviceGroup {
 public:
  explicit CudaDeviceGroup(std::vector<int> ordinals) : ordinals_(std::move(ordinals)) {
    for (int d : ordinals_) infos_.push_back(describe_device(d));
  }
  int size() const override { return int(ordinals_.size()); }
  const DeviceInfo& info(int i) const override { return infos_.at(i); }
  std::string id(int i) const override { return "cuda:" + std::to_string(ordinals_.at(i)); }
  void enter(int i) const override {
    check(cudaSetDevice(ordinals_.at(i)), "cudaSetDevice", id(i));
  }

 private:
  std::vector<int> ordinals_;
  std::vector<DeviceInfo> infos_;
};

}  // namespace

std::unique_ptr<DeviceGroup> make_split_group(const std::vector<int>& ordinals, int count) {
  std::vector<int> chosen = ordinals;
  for (int d : chosen)
    if (d >= count)
      throw UsageError("--cuda-split-devices " + std::to_string(d) + ": no such CUDA device (" +
                       std::to_string(count) + " found; see --list-devices)");
  if (chosen.empty())
    for (int d = 0; d < count; ++d) chosen.push_back(d);
  return std::make_unique<CudaDeviceGroup>(std::move(chosen));
}

}  // namespace gpucmp::cuda

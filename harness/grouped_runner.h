// A runner whose one launch is `group` launches of another (a whole run of
// many steps timed as one launch: advection's full-length problems, issue
// 18 item 5). Everything else passes through.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "runner.h"

namespace gpucmp {

class GroupedRunner final : public Runner {
 public:
  GroupedRunner(std::unique_ptr<Runner> inner, int group)
      : inner_(std::move(inner)), group_(group) {}
  void upload() override { inner_->upload(); }
  BatchTiming time_batch(int launches) override {
    BatchTiming t = inner_->time_batch(launches * group_);
    t.launches = launches;
    return t;
  }
  void download() override { inner_->download(); }
  void flush_l2(std::size_t bytes) override { inner_->flush_l2(bytes); }
  double build_ms() const override { return inner_->build_ms(); }
  std::string label() const override { return inner_->label(); }

 private:
  std::unique_ptr<Runner> inner_;
  int group_;
};

}  // namespace gpucmp

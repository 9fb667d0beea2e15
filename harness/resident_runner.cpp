#include "resident_runner.h"

#include <chrono>
#include <exception>
#include <stdexcept>
#include <string>

namespace gpucmp {

namespace {

// The error that stopped the parts: the first that was not another part's
// abort (which only says that one failed), else the first.
void rethrow_cause(const std::vector<std::exception_ptr>& errors) {
  std::exception_ptr first;
  for (const std::exception_ptr& e : errors) {
    if (!e) continue;
    if (!first) first = e;
    try {
      std::rethrow_exception(e);
    } catch (const HaloAborted&) {
      continue;
    } catch (...) {
      throw;
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace

ResidentRunner::ResidentRunner(DeviceWorkers& workers, const PartFactory& make,
                               const std::vector<Part>& parts)
    : workers_(workers), hub_(int(parts.size())), parts_(parts.size()) {
  if (int(parts.size()) > workers.size())
    throw std::invalid_argument(std::to_string(parts.size()) + " resident parts over " +
                                std::to_string(workers.size()) + " devices");
  for (const Part& p : parts)
    if (p.count == 0) throw std::invalid_argument("a resident split's part is empty");
  // Every device entered first (a device that cannot be made current fails
  // here, before any part waits for it in a collective), then the parts made
  // collectively (NCCL's id, peer pointers): none waits for a failed one.
  workers_.run_all([](int) {});
  try {
    on_parts([&](int i) {
      const ScopedHaloLink link(hub_.link(i));
      parts_[std::size_t(i)] = make(i, parts[std::size_t(i)]);
    });
  } catch (...) {
    release();  // the parts that were made, on their threads
    throw;
  }
}

ResidentRunner::~ResidentRunner() { release(); }

void ResidentRunner::release() noexcept {
  try {
    // Every part idle before any goes: one may still be writing into
    // another's buffers (a peer copy of a batch that failed elsewhere).
    workers_.run_all([this](int i) {
      if (i < int(parts_.size()) && parts_[std::size_t(i)]) parts_[std::size_t(i)]->settle();
    });
    workers_.run_all([this](int i) {
      if (i < int(parts_.size())) parts_[std::size_t(i)].reset();
    });
  } catch (...) {  // a runner's destructor does not throw; nothing to report here
  }
}

void ResidentRunner::on_parts(const std::function<void(int)>& task) {
  std::vector<std::exception_ptr> errors(parts_.size());
  workers_.run_all([&](int i) {
    if (i >= int(parts_.size())) return;
    try {
      task(i);
    } catch (const HaloAborted&) {
      errors[std::size_t(i)] = std::current_exception();
    } catch (...) {
      errors[std::size_t(i)] = std::current_exception();
      hub_.abort();
    }
  });
  rethrow_cause(errors);
}

void ResidentRunner::upload() {
  on_parts([this](int i) { parts_[std::size_t(i)]->upload(); });
}

BatchTiming ResidentRunner::time_batch(int launches) {
  const auto t0 = std::chrono::steady_clock::now();
  on_parts([this, launches](int i) { parts_[std::size_t(i)]->time_batch(launches); });
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return {wall, wall, launches};
}

void ResidentRunner::download() {
  on_parts([this](int i) { parts_[std::size_t(i)]->download(); });
}

void ResidentRunner::flush_l2(std::size_t bytes) {
  on_parts([this, bytes](int i) { parts_[std::size_t(i)]->flush_l2(bytes); });
}

}  // namespace gpucmp

// Unit tests of a resident split in one process, no device needed: the
// in-process halo hub (exchange, broadcast, all_gather, meetings, abort) and
// ResidentRunner on fake parts that trade through it, including a part that
// fails while the other waits for its halo.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "device_group.h"
#include "halo_link.h"
#include "resident_runner.h"
#include "thread_halo.h"

namespace gpucmp {
namespace {

// Runs body(part) on `parts` threads at once and joins them; the exceptions'
// messages by part ("" where none).
std::vector<std::string> on_threads(int parts, const std::function<void(int)>& body) {
  std::vector<std::string> errors(static_cast<std::size_t>(parts));
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(parts));
  for (int i = 0; i < parts; ++i)
    threads.emplace_back([&, i] {
      try {
        body(i);
      } catch (const std::exception& e) {
        errors[std::size_t(i)] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  return errors;
}

TEST(ThreadHaloHub, EachPartReceivesWhatItsNeighboursSentIt) {
  // Three parts in a row, as advection's bands: each sends its id (times 10,
  // plus 1 upward, 2 downward) to the part above and below.
  constexpr int kParts = 3;
  ThreadHaloHub hub(kParts);
  std::vector<std::vector<int>> got(kParts);
  const auto errors = on_threads(kParts, [&](int i) {
    HaloLink& link = hub.link(i);
    EXPECT_EQ(link.part(), i);
    EXPECT_EQ(link.parts(), kParts);
    EXPECT_TRUE(link.in_process());
    for (int round = 0; round < 50; ++round) {  // buffers reused: no round reads the next's
      int up_send = 10 * i + 1 + 100 * round, down_send = 10 * i + 2 + 100 * round;
      int up_recv = -1, down_recv = -1;
      std::vector<HaloMessage> m;
      if (i > 0) m.push_back({i - 1, &up_send, &up_recv, sizeof(int)});
      if (i + 1 < kParts) m.push_back({i + 1, &down_send, &down_recv, sizeof(int)});
      link.exchange(m);
      if (i > 0) {
        EXPECT_EQ(up_recv, 10 * (i - 1) + 2 + 100 * round);
      }
      if (i + 1 < kParts) {
        EXPECT_EQ(down_recv, 10 * (i + 1) + 1 + 100 * round);
      }
      if (round == 49) got[std::size_t(i)] = {up_recv, down_recv};
    }
  });
  EXPECT_EQ(errors, std::vector<std::string>(kParts));
  EXPECT_EQ(got[0], (std::vector<int>{-1, 11 + 4900}));
  EXPECT_EQ(got[1], (std::vector<int>{2 + 4900, 21 + 4900}));
  EXPECT_EQ(got[2], (std::vector<int>{12 + 4900, -1}));
}

TEST(ThreadHaloHub, BroadcastAndAllGather) {
  ThreadHaloHub hub(2);
  std::vector<std::vector<long long>> gathered(2);
  std::vector<long long> broadcast(2);
  const auto errors = on_threads(2, [&](int i) {
    long long value = i == 0 ? 42 : -1;
    hub.link(i).broadcast(&value, sizeof value);
    broadcast[std::size_t(i)] = value;
    const long long mine = 7 + i;
    gathered[std::size_t(i)].resize(2);
    hub.link(i).all_gather(&mine, gathered[std::size_t(i)].data(), sizeof mine);
  });
  EXPECT_EQ(errors, std::vector<std::string>(2));
  EXPECT_EQ(broadcast, (std::vector<long long>{42, 42}));
  EXPECT_EQ(gathered[0], (std::vector<long long>{7, 8}));
  EXPECT_EQ(gathered[1], (std::vector<long long>{7, 8}));
}

TEST(ThreadHaloHub, AMessageWithoutItsPartnerIsAnErrorNotGarbage) {
  ThreadHaloHub hub(2);
  const auto errors = on_threads(2, [&](int i) {
    int send = i, recv = -1;
    std::vector<HaloMessage> m;
    if (i == 0) m.push_back({1, &send, &recv, sizeof(int)});  // part 1 sends nothing back
    hub.link(i).exchange(m);
  });
  EXPECT_NE(errors[0].find("part 1 sends part 0 no message of 4 bytes"), std::string::npos)
      << errors[0];
  EXPECT_EQ(errors[1], HaloAborted().what());  // released, not left waiting
}

TEST(ThreadHaloHub, AbortReleasesEveryWaitingPartAndEveryLaterOne) {
  ThreadHaloHub hub(3);
  std::atomic<int> waiting{0};
  const auto errors = on_threads(3, [&](int i) {
    if (i == 2) {  // the failed part: never meets, aborts once the others wait
      while (waiting.load() < 2) std::this_thread::yield();
      hub.abort();
      return;
    }
    ++waiting;
    hub.link(i).barrier();
  });
  EXPECT_EQ(errors[0], HaloAborted().what());
  EXPECT_EQ(errors[1], HaloAborted().what());
  EXPECT_THROW(hub.link(0).barrier(), HaloAborted);
}

// ---- ResidentRunner over fake parts ----

class TwoFakes final : public DeviceGroup {
 public:
  int size() const override { return 2; }
  const DeviceInfo& info(int) const override { return info_; }
  std::string id(int i) const override { return "fake:" + std::to_string(i); }
  void enter(int) const override {}

 private:
  DeviceInfo info_;
};

// A part that trades its launch count with the other each launch, through
// the link halo_link() gave it when it was made; part `fails` throws on
// its launch `fail_at` instead of meeting.
class TradingPart final : public Runner {
 public:
  TradingPart(int part, int fail_at) : link_(halo_link()), part_(part), fail_at_(fail_at) {}
  void upload() override { launches_ = 0; }
  BatchTiming time_batch(int launches) override {
    for (int l = 0; l < launches; ++l) {
      if (launches_ == fail_at_)
        throw std::runtime_error("part " + std::to_string(part_) + " broke");
      int send = launches_, recv = -1;
      link_.exchange({{1 - part_, &send, &recv, sizeof(int)}});
      if (recv != launches_) throw std::logic_error("out of step");
      ++launches_;
    }
    return {0, 0, launches};
  }
  void download() override {}
  void flush_l2(std::size_t) override {}
  int launches() const { return launches_; }

 private:
  HaloLink& link_;
  int part_, fail_at_, launches_ = 0;
};

TEST(ResidentRunner, PartsTradeInStepAndAFailedPartStopsTheOtherWithItsOwnError) {
  const TwoFakes group;
  DeviceWorkers workers(group);
  std::vector<TradingPart*> made(2, nullptr);
  const auto factory = [&](int fail_part, int fail_at) {
    return [&made, fail_part, fail_at](int device, const Part&) {
      auto p = std::make_unique<TradingPart>(device, device == fail_part ? fail_at : -1);
      made[std::size_t(device)] = p.get();
      return std::unique_ptr<Runner>(std::move(p));
    };
  };
  const std::vector<Part> parts = {{SplitAxis::y, 0, 64}, {SplitAxis::y, 64, 64}};
  {
    ResidentRunner runner(workers, factory(-1, -1), parts);
    runner.upload();
    const BatchTiming t = runner.time_batch(20);
    EXPECT_EQ(t.launches, 20);
    EXPECT_GT(t.host_s, 0);
    EXPECT_EQ(made[0]->launches(), 20);
    EXPECT_EQ(made[1]->launches(), 20);
  }
  ResidentRunner runner(workers, factory(1, 5), parts);
  runner.upload();
  try {
    runner.time_batch(20);  // part 0 waits at its 6th exchange for part 1, which broke
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "part 1 broke");
  }
  EXPECT_EQ(made[0]->launches(), 5);
}

// A device that cannot be made current fails the row before any part is
// made: no part waits in a collective for one that never comes.
TEST(ResidentRunner, ADeviceThatCannotBeEnteredFailsBeforeAnyPartIsMade) {
  class SecondFails final : public DeviceGroup {
   public:
    int size() const override { return 2; }
    const DeviceInfo& info(int) const override { return info_; }
    std::string id(int i) const override { return "fake:" + std::to_string(i); }
    void enter(int i) const override {
      if (i == 1) throw std::runtime_error("device 1 is busy");
    }

   private:
    DeviceInfo info_;
  };
  const SecondFails group;
  DeviceWorkers workers(group);
  std::atomic<int> made{0};
  const PartFactory collective = [&made](int device, const Part&) -> std::unique_ptr<Runner> {
    ++made;
    halo_link().barrier();  // as NCCL's id or the peer pointers are shared
    return std::make_unique<TradingPart>(device, -1);
  };
  const std::vector<Part> parts = {{SplitAxis::y, 0, 64}, {SplitAxis::y, 64, 64}};
  try {
    const ResidentRunner runner(workers, collective, parts);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "device 1 is busy");
  }
  EXPECT_EQ(made.load(), 0);
}

TEST(ResidentRunner, OutsideAResidentRowTheLinkIsMpisOrNone) {
  // No ScopedHaloLink on this thread: halo_link() is MPI's, which without
  // an MPI split says why the two-GPU rows cannot run.
  EXPECT_THROW(halo_link(), std::exception);
  ThreadHaloHub hub(1);
  {
    const ScopedHaloLink scoped(hub.link(0));
    EXPECT_EQ(&halo_link(), &hub.link(0));
  }
  EXPECT_THROW(halo_link(), std::exception);
}

}  // namespace
}  // namespace gpucmp

// Host-side work split over threads: the CPU references and checks of large
// outputs (validation.h), which run outside every timed region.
#pragma once
#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace gpucmp {

// Threads for `count` items of at least `grain` each: 1 up to the
// hardware's threads (at most 64).
inline unsigned host_threads(std::size_t count, std::size_t grain) {
  const std::size_t hardware = std::max(1U, std::thread::hardware_concurrency());
  const std::size_t by_work = std::max<std::size_t>(1, count / std::max<std::size_t>(grain, 1));
  return unsigned(std::min({hardware, by_work, std::size_t(64)}));
}

// Calls range(begin, end, t) for contiguous ranges covering [0, count), the
// t-th range on thread t of host_threads(count, grain), and returns when all
// are done; an exception thrown by one is rethrown here (the first by thread
// order). `range` must touch only what its own items own.
template <class Range>
void parallel_for(std::size_t count, std::size_t grain, Range range) {
  const unsigned threads = host_threads(count, grain);
  if (threads <= 1) {
    range(std::size_t(0), count, 0U);
    return;
  }
  std::vector<std::exception_ptr> failed(threads);
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        range(count * t / threads, count * (t + 1) / threads, t);
      } catch (...) {
        failed[t] = std::current_exception();
      }
    });
  for (std::thread& th : pool) th.join();
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

// Every element of `v` set to `value`, over threads: the poison written into
// an output before each checked launch (hundreds of MB for the large rows).
template <class T, class Value>
void fill_parallel(std::vector<T>& v, Value value) {
  const T poison = T(value);
  parallel_for(v.size(), std::size_t(1) << 20, [&](std::size_t begin, std::size_t end, unsigned) {
    std::fill(v.begin() + std::ptrdiff_t(begin), v.begin() + std::ptrdiff_t(end), poison);
  });
}

}  // namespace gpucmp

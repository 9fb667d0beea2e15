#include "timed_runner.h"

#include <chrono>

#include "check.h"
#include "errors.h"
#include "session.h"

namespace gpucmp::opencl {

cl_event* TimedRunner::record() {
  ++commands_;
  if (!launch_spans()) return nullptr;
  events_.emplace_back();
  return events_.back().out();
}

double profiled_seconds(cl_event first, cl_event last) {
  cl_ulong start = 0, end = 0;
  check(clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
        "clGetEventProfilingInfo", "COMMAND_START");
  check(clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
        "clGetEventProfilingInfo", "COMMAND_END");
  return double(end - start) * 1e-9;
}

void TimedRunner::flush_l2(std::size_t bytes) {
  if (scratch_bytes_ != bytes) {
    scratch_ = make_buffer(CL_MEM_READ_WRITE, bytes, "L2 flush scratch");
    scratch_bytes_ = bytes;
  }
  const cl_uint pattern = ++flushes_;  // new data each time, so nothing is elided
  cl_command_queue q = session().queue();
  check(clEnqueueFillBuffer(q, scratch_.get(), &pattern, sizeof pattern, 0, bytes, 0, nullptr,
                            nullptr),
        "clEnqueueFillBuffer", "L2 flush, " + std::to_string(bytes) + " bytes");
  check(clFinish(q), "clFinish", "L2 flush");
}

BatchTiming TimedRunner::time_batch(int launches) {
  const bool spans = launch_spans();
  events_.clear();
  if (spans) events_.reserve(std::size_t(launches) * 2);
  commands_ = 0;
  cl_command_queue q = session().queue();
  Event begin, end;
  const auto t0 = std::chrono::steady_clock::now();
  check(clEnqueueMarkerWithWaitList(q, 0, nullptr, begin.out()), "clEnqueueMarker", "batch begin");
  std::vector<std::size_t> firsts;  // each launch's first event (launch spans)
  for (int i = 0; i < launches; ++i) {
    if (spans) firsts.push_back(events_.size());
    enqueue();
  }
  check(clEnqueueMarkerWithWaitList(q, 0, nullptr, end.out()), "clEnqueueMarker", "batch end");
  check(clFinish(q), "clFinish", "timed batch");
  const auto t1 = std::chrono::steady_clock::now();
  if (commands_ == 0) throw ApiError("OpenCL runner enqueued no command through record()");
  BatchTiming t;
  t.launches = launches;
  t.commands = commands_;
  t.timing_events = 2 + int(events_.size());
  t.host_s = std::chrono::duration<double>(t1 - t0).count();
  t.device_s = profiled_seconds(begin, end);
  if (spans) {
    t.launches_s = 0;
    firsts.push_back(events_.size());
    for (std::size_t i = 0; i + 1 < firsts.size(); ++i)
      if (firsts[i + 1] > firsts[i])
        t.launches_s += profiled_seconds(events_[firsts[i]], events_[firsts[i + 1] - 1]);
  }
  events_.clear();
  return t;
}

}  // namespace gpucmp::opencl

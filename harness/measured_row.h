// One timed row's Prepared (startup.h) from its runner and what it measures,
// each field named where it is set, in place of assignments to a Measurement:
//
//   return MeasuredRow(name)
//       .runner(row.make(p, row.variant))
//       .rate(RateUnit::GBps, counted_bytes(n), dev.dram_peak_gbps)
//       .roofline(2.0 * double(n), counted_bytes(n))
//       .clear_output([&p] { std::fill(p.a.begin(), p.a.end(), NAN); })
//       .validate([&p] { return validate(p); })
//       .prepared();
//
// Each setter writes the Measurement fields of its name (measure.h says what
// they mean); a field no setter names keeps Measurement's default.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "measure.h"
#include "naming.h"
#include "runner.h"
#include "startup.h"
#include "validation.h"

namespace gpucmp {

class MeasuredRow {
 public:
  explicit MeasuredRow(BenchName name);

  MeasuredRow& runner(std::unique_ptr<Runner> runner);
  // What one launch does in `unit` (bytes for GBps, flop for GFLOPs) and the
  // device's peak in that unit (0: unknown).
  MeasuredRow& rate(RateUnit unit, double work_per_launch, double peak);
  // Roofline place: FP32 flop and the least DRAM bytes one launch moves.
  MeasuredRow& roofline(double flop, double bytes);
  // Work items one launch processes, reported as picoseconds per item under `counter`.
  MeasuredRow& per_item(double items_per_launch, std::string counter);
  MeasuredRow& commands_per_launch(int commands);
  MeasuredRow& clear_output(std::function<void()> clear);
  MeasuredRow& validate(std::function<Validation()> check);
  MeasuredRow& after_timing(std::function<void()> after);
  MeasuredRow& output_digest(std::function<double()> digest);
  MeasuredRow& counter(std::string name, double value);

  // The measurement so far, for what no setter names (a local row's counters).
  Measurement& measurement() { return prepared_.m; }

  // The row, moved out: the description's last call. Throws std::logic_error
  // when no runner was given.
  Prepared prepared();

 private:
  Prepared prepared_;
};

}  // namespace gpucmp

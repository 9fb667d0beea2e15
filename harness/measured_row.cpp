#include "measured_row.h"

#include <stdexcept>
#include <utility>

namespace gpucmp {

MeasuredRow::MeasuredRow(BenchName name) { prepared_.m.name = std::move(name); }

MeasuredRow& MeasuredRow::runner(std::unique_ptr<Runner> runner) {
  prepared_.runner = std::move(runner);
  return *this;
}

MeasuredRow& MeasuredRow::rate(RateUnit unit, double work_per_launch, double peak) {
  prepared_.m.unit = unit;
  prepared_.m.work_per_launch = work_per_launch;
  prepared_.m.peak = peak;
  return *this;
}

MeasuredRow& MeasuredRow::roofline(double flop, double bytes) {
  prepared_.m.roofline_flop = flop;
  prepared_.m.roofline_bytes = bytes;
  return *this;
}

MeasuredRow& MeasuredRow::per_item(double items_per_launch, std::string counter) {
  prepared_.m.items_per_launch = items_per_launch;
  prepared_.m.time_per_item_counter = std::move(counter);
  return *this;
}

MeasuredRow& MeasuredRow::commands_per_launch(int commands) {
  prepared_.m.commands_per_launch = commands;
  return *this;
}

MeasuredRow& MeasuredRow::clear_output(std::function<void()> clear) {
  prepared_.m.clear_output = std::move(clear);
  return *this;
}

MeasuredRow& MeasuredRow::validate(std::function<Validation()> check) {
  prepared_.m.validate = std::move(check);
  return *this;
}

MeasuredRow& MeasuredRow::after_timing(std::function<void()> after) {
  prepared_.m.after_timing = std::move(after);
  return *this;
}

MeasuredRow& MeasuredRow::output_digest(std::function<double()> digest) {
  prepared_.m.output_digest = std::move(digest);
  return *this;
}

MeasuredRow& MeasuredRow::counter(std::string name, double value) {
  prepared_.m.counters.emplace_back(std::move(name), value);
  return *this;
}

Prepared MeasuredRow::prepared() {
  if (!prepared_.runner)
    throw std::logic_error(prepared_.m.name.str() + ": a measured row needs a runner");
  return std::move(prepared_);
}

}  // namespace gpucmp

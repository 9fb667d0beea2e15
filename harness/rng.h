// Seeded, platform-independent random numbers: the same seed gives the same
// inputs on every machine (std:: distributions are implementation-defined).
#pragma once
#include <cstdint>
#include <random>

namespace gpucmp {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [lo, hi), from the top 24 bits so every value is an exact float.
  float uniform(float lo, float hi) {
    const double u = double(engine_() >> 40) / double(1u << 24);
    return float(lo + (hi - lo) * u);
  }
  // Uniform integer in [0, n).
  std::uint64_t below(std::uint64_t n) { return engine_() % n; }
  std::uint64_t next() { return engine_(); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace gpucmp

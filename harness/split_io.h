// What one part of a split row reads and writes on the host:
// rectangles of the problem's row-major arrays. The in-process split
// needs none of it (the parts share the host problem); the MPI split scatters
// a part's input rectangles from rank 0 to the part's rank and gathers its
// output rectangles back, and every split row reports a digest of its whole
// output, so that runs over different devices or ranks can be compared bit
// for bit.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "work_split.h"

namespace gpucmp {

// A row-major host array of `height` rows of `width` elements.
struct HostArray {
  void* data = nullptr;
  std::size_t elem_bytes = 0;
  long long width = 0, height = 0;
};

template <class T>
HostArray host_array(std::vector<T>& v, long long width) {
  const auto height = width > 0 ? static_cast<long long>(v.size()) / width : 0;
  return {v.data(), sizeof(T), width, height};
}

// One rectangle of an array that a part reads (input) or writes (output).
struct PartTransfer {
  HostArray array;
  Rect rect;
  bool output = false;
};

// What `part` reads and writes; a whole part: every input and output array.
using PartIo = std::function<std::vector<PartTransfer>(const Part& part)>;

// Fills the rectangles of `transfers` whose direction is `outputs` with 0xFF
// bytes (a NaN in every float), so that data a part never received, or an
// output never sent back, fails validation instead of passing on stale values.
void poison(const std::vector<PartTransfer>& transfers, bool outputs);

// A 52-bit hash (FNV-1a's step on 64-bit words in four lanes, then
// MurmurHash3's finalizer) of the bytes of every output rectangle of
// `transfers`, row by row in order: equal outputs, equal digests; one changed
// byte changes it (but for a 2^-52 chance of a collision). Exact as a JSON
// number.
double output_digest(const std::vector<PartTransfer>& transfers);

}  // namespace gpucmp

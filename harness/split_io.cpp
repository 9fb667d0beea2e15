#include "split_io.h"

#include <cstdint>
#include <cstring>

namespace gpucmp {

namespace {

// Calls row(bytes, count) for each row of `t.rect` in `t.array`.
template <class Row>
void for_each_row(const PartTransfer& t, Row row) {
  if (t.rect.empty()) return;
  auto* base = static_cast<unsigned char*>(t.array.data);
  const auto row_bytes = std::size_t(t.rect.w) * t.array.elem_bytes;
  for (long long y = t.rect.y; y < t.rect.y + t.rect.h; ++y)
    row(base + (std::size_t(y) * std::size_t(t.array.width) + std::size_t(t.rect.x)) *
                   t.array.elem_bytes,
        row_bytes);
}

}  // namespace

void poison(const std::vector<PartTransfer>& transfers, bool outputs) {
  for (const PartTransfer& t : transfers)
    if (t.output == outputs)
      for_each_row(t, [](unsigned char* bytes, std::size_t n) { std::memset(bytes, 0xFF, n); });
}

double output_digest(const std::vector<PartTransfer>& transfers) {
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a 64-bit offset basis
  for (const PartTransfer& t : transfers)
    if (t.output)
      for_each_row(t, [&h](const unsigned char* bytes, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
          h ^= bytes[i];
          h *= 1099511628211ULL;  // FNV prime
        }
      });
  return double(h & ((std::uint64_t(1) << 52) - 1));
}

}  // namespace gpucmp

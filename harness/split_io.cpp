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

// FNV-1a's step (xor, then multiply by the FNV prime) on 64-bit words, the
// words dealt in turn to four lanes so that four multiplies are in flight
// (FNV-1a byte by byte costs about 0.7 s on a 512 MB field; this about a
// tenth of that). The bytes are one stream however they are cut into add()
// calls: a word split between two calls is completed from the second.
class OutputDigest {
 public:
  void add(const unsigned char* bytes, std::size_t n) {
    while (n > 0 && pending_ > 0) {  // complete the word the last call began
      word_bytes_[pending_++] = *bytes++;
      --n;
      if (pending_ == 8) {
        absorb(load(word_bytes_));
        pending_ = 0;
      }
    }
    for (; n >= 8; bytes += 8, n -= 8) absorb(load(bytes));
    for (; n > 0; --n) word_bytes_[pending_++] = *bytes++;
  }

  // Kept to 52 bits, so that it is exact as a JSON number.
  double value() const {
    std::uint64_t h = kBasis;
    const auto mix = [&h](std::uint64_t w) {
      h ^= w;
      h *= kPrime;
    };
    for (std::uint64_t lane : lanes_) mix(avalanche(lane));
    for (std::size_t i = 0; i < pending_; ++i) mix(word_bytes_[i]);
    mix(words_ * 8 + pending_);  // the length, so that trailing zero bytes count
    return double(avalanche(h) & ((std::uint64_t(1) << 52) - 1));
  }

 private:
  static constexpr std::uint64_t kBasis = 14695981039346656037ULL;  // FNV-1a 64-bit offset basis
  static constexpr std::uint64_t kPrime = 1099511628211ULL;         // FNV prime

  // A multiply carries a bit only upwards, so a lane's top bits hold its words'
  // top bits alone: MurmurHash3's 64-bit finalizer spreads every bit over all
  // 64 before the digest keeps 52.
  static std::uint64_t avalanche(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
  }
  static std::uint64_t load(const unsigned char* bytes) {
    std::uint64_t w;
    std::memcpy(&w, bytes, sizeof w);
    return w;
  }
  void absorb(std::uint64_t w) {
    std::uint64_t& h = lanes_[words_++ % 4];
    h ^= w;
    h *= kPrime;
  }

  std::uint64_t lanes_[4] = {kBasis, kBasis ^ 1, kBasis ^ 2, kBasis ^ 3};
  std::uint64_t words_ = 0;
  unsigned char word_bytes_[8] = {};
  std::size_t pending_ = 0;
};

}  // namespace

void poison(const std::vector<PartTransfer>& transfers, bool outputs) {
  for (const PartTransfer& t : transfers)
    if (t.output == outputs)
      for_each_row(t, [](unsigned char* bytes, std::size_t n) { std::memset(bytes, 0xFF, n); });
}

double output_digest(const std::vector<PartTransfer>& transfers) {
  OutputDigest digest;
  for (const PartTransfer& t : transfers)
    if (t.output)
      for_each_row(t,
                   [&digest](const unsigned char* bytes, std::size_t n) { digest.add(bytes, n); });
  return digest.value();
}

}  // namespace gpucmp

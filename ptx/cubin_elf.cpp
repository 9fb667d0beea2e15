#include "cubin_elf.h"

#include <algorithm>
#include <cstdint>

namespace gpucmp::ptx {
namespace {

// ELF64 layout (System V gABI): the fields read here and where they are.
constexpr std::size_t kHeaderSize = 64, kSectionEntrySize = 64, kSegmentEntrySize = 56;
constexpr std::size_t kClassAt = 4, kDataAt = 5, kAbiVersionAt = 8, kMachineAt = 18;
constexpr std::size_t kPhoffAt = 32, kShoffAt = 40, kFlagsAt = 48, kPhentsizeAt = 54, kPhnumAt = 56,
                      kShentsizeAt = 58, kShnumAt = 60, kShstrndxAt = 62;
constexpr unsigned kClass64 = 2, kLittleEndian = 1, kSectionNoBits = 8;

std::uint64_t read_le(std::string_view bytes, std::size_t at, std::size_t width) {
  if (at > bytes.size() || width > bytes.size() - at)
    throw CubinError("truncated: reads byte " + std::to_string(at + width) + " of " +
                     std::to_string(bytes.size()));
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i)
    v |= std::uint64_t(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  return v;
}
std::uint64_t u16(std::string_view b, std::size_t at) { return read_le(b, at, 2); }
std::uint64_t u32(std::string_view b, std::size_t at) { return read_le(b, at, 4); }
std::uint64_t u64(std::string_view b, std::size_t at) { return read_le(b, at, 8); }

// offset + count * entry, or a CubinError when it lies past `available`.
std::uint64_t table_end(std::uint64_t offset, std::uint64_t count, std::uint64_t entry,
                        std::size_t available, const char* what) {
  const std::uint64_t bytes = count * entry;  // table: both < 2^16; contents: count 1
  if (offset > available || bytes > available - offset)
    throw CubinError(std::string("truncated: the ") + what + " ends at byte " +
                     std::to_string(offset) + "+" + std::to_string(bytes) + ", past the " +
                     std::to_string(available) + " bytes left");
  return offset + bytes;
}

struct Section {
  std::uint64_t name, type, offset, size;
};

Section section(std::string_view elf, std::size_t index) {
  const std::size_t at = std::size_t(u64(elf, kShoffAt)) + index * kSectionEntrySize;
  return {u32(elf, at), u32(elf, at + 4), u64(elf, at + 24), u64(elf, at + 32)};
}

void check_entry_sizes(std::string_view elf) {
  if (u16(elf, kShnumAt) > 0 && u16(elf, kShentsizeAt) != kSectionEntrySize)
    throw CubinError("corrupt: section header size " + std::to_string(u16(elf, kShentsizeAt)));
  if (u16(elf, kPhnumAt) > 0 && u16(elf, kPhentsizeAt) != kSegmentEntrySize)
    throw CubinError("corrupt: program header size " + std::to_string(u16(elf, kPhentsizeAt)));
}

}  // namespace

std::size_t cubin_size(std::string_view bytes) {
  if (bytes.substr(0, kElfMagic.size()) != kElfMagic) return 0;
  // Identify with what is there; a cubin cut inside its header is truncated.
  if (bytes.size() > kClassAt && static_cast<unsigned char>(bytes[kClassAt]) != kClass64) return 0;
  if (bytes.size() > kDataAt && static_cast<unsigned char>(bytes[kDataAt]) != kLittleEndian)
    return 0;
  if (bytes.size() >= kMachineAt + 2 && u16(bytes, kMachineAt) != kElfMachineCuda) return 0;
  if (bytes.size() < kHeaderSize)
    throw CubinError("truncated: an ELF header needs 64 bytes, " + std::to_string(bytes.size()) +
                     " left");
  check_entry_sizes(bytes);
  const std::size_t available = bytes.size();
  const std::uint64_t shnum = u16(bytes, kShnumAt), phoff = u64(bytes, kPhoffAt);
  std::uint64_t end = kHeaderSize;
  end = std::max(end, table_end(u64(bytes, kShoffAt), shnum, kSectionEntrySize, available,
                                "section header table"));
  end = std::max(end, table_end(phoff, u16(bytes, kPhnumAt), kSegmentEntrySize, available,
                                "program header table"));
  for (std::size_t i = 0; i < shnum; ++i) {
    const Section s = section(bytes, i);
    if (s.type == kSectionNoBits) continue;  // .bss-like: no bytes in the file
    end = std::max(
        end, table_end(s.offset, 1, s.size, available, ("section " + std::to_string(i)).c_str()));
  }
  for (std::size_t i = 0; i < u16(bytes, kPhnumAt); ++i) {
    const std::size_t at = std::size_t(phoff) + i * kSegmentEntrySize;
    end = std::max(end, table_end(u64(bytes, at + 8), 1, u64(bytes, at + 32), available,
                                  ("segment " + std::to_string(i)).c_str()));
  }
  return std::size_t(end);
}

std::vector<std::string> cubin_kernels(std::string_view cubin) {
  if (cubin_size(cubin) == 0) throw CubinError("not a 64-bit little-endian CUDA ELF");
  const std::size_t shnum = u16(cubin, kShnumAt), names_index = u16(cubin, kShstrndxAt);
  if (shnum == 0) return {};
  if (names_index >= shnum)
    throw CubinError("corrupt: section name table index " + std::to_string(names_index) + " of " +
                     std::to_string(shnum) + " sections");
  const Section names = section(cubin, names_index);
  if (names.type == kSectionNoBits)
    throw CubinError("corrupt: the section name table has no bytes");
  const std::string_view table = cubin.substr(std::size_t(names.offset), std::size_t(names.size));
  constexpr std::string_view kText = ".text.";
  std::vector<std::string> kernels;
  for (std::size_t i = 0; i < shnum; ++i) {
    const std::uint64_t at = section(cubin, i).name;
    if (at >= table.size()) throw CubinError("corrupt: section " + std::to_string(i) + "'s name");
    std::string_view name = table.substr(std::size_t(at));
    name = name.substr(0, name.find('\0'));
    if (name.size() > kText.size() && name.substr(0, kText.size()) == kText)
      kernels.emplace_back(name.substr(kText.size()));
  }
  return kernels;
}

int cubin_sm(std::string_view cubin) {
  if (cubin.size() < kHeaderSize) return 0;
  const std::uint64_t flags = u32(cubin, kFlagsAt);
  const bool abi_v8 = static_cast<unsigned char>(cubin[kAbiVersionAt]) >= 8;
  return int(abi_v8 ? (flags >> 8) & 0xff : flags & 0xff);
}

}  // namespace gpucmp::ptx

// Reading a CUDA cubin (a 64-bit little-endian ELF, e_machine EM_CUDA) from
// raw bytes: its size from its headers, its kernels and its SM version. Every
// read is bounds-checked: a truncated or inconsistent ELF is a CubinError,
// never a read past the end.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpucmp::ptx {

class CubinError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr unsigned kElfMachineCuda = 190;  // EM_CUDA
constexpr std::string_view kElfMagic{
    "\x7f"
    "ELF",
    4};

// `bytes` starts with kElfMagic. Returns the ELF's size in bytes: the furthest
// end of its section header table, its program header table and every
// section's and segment's contents. Returns 0 when it is not a cubin
// (not ELFCLASS64, not little-endian, or e_machine is not EM_CUDA). Throws
// CubinError when it is one but its headers are inconsistent or reach past
// the end of `bytes` (a truncated file).
std::size_t cubin_size(std::string_view bytes);

// The kernels of a cubin: the <name> of each section named ".text.<name>", in
// section order. Throws CubinError on a malformed section table.
std::vector<std::string> cubin_kernels(std::string_view cubin);

// The SM version the cubin is for (90 for sm_90), from e_flags: bits 8-15 in
// the ELF ABI version 8 of CUDA 13, bits 0-7 before; 0 when unreadable.
int cubin_sm(std::string_view cubin);

}  // namespace gpucmp::ptx

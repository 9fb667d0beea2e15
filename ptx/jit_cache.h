// The CUDA driver's compute cache as a source of the machine code that ran.
// With CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH=<dir>, the driver stores what its
// JIT compiled (NVIDIA's OpenCL included) in files under <dir> (nested
// folders and an index file); the entries hold the ELF cubins. This module
// lists those files and extracts every cubin embedded in them.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpucmp::ptx {

// A missing folder, an unreadable file, or a truncated or corrupt cubin; the
// message names the file (and the offset of the cubin).
class JitCacheError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CacheCubin {
  std::string file;                  // the cache file it was found in
  std::uint64_t offset = 0;          // where its ELF header starts in that file
  std::string elf;                   // the cubin, byte for byte
  int sm = 0;                        // 90 for sm_90 (cubin_sm)
  std::vector<std::string> kernels;  // its .text.<name> sections

  bool has_kernel(const std::string& name) const;
};

// Every cubin in `bytes` (`file` names it in errors and results): each
// "\x7fELF" that starts a 64-bit little-endian EM_CUDA ELF, sized from its
// headers; the scan goes on after it. Other ELF magics are skipped.
std::vector<CacheCubin> cubins_in_bytes(std::string_view bytes, const std::string& file);
std::vector<CacheCubin> cubins_in_file(const std::string& path);

// The regular files under `dir`, recursively, sorted. JitCacheError when
// `dir` is not a folder.
std::vector<std::string> cache_files(const std::string& dir);

// Every cubin in every file under `dir`.
std::vector<CacheCubin> cubins_in_cache(const std::string& dir);

// What a cache folder held at one moment: each file's size and time, and the
// cubins in it. Take one before a build and pass it to cubins_since after.
struct CacheSnapshot {
  struct Stamp {
    std::uintmax_t size = 0;
    std::filesystem::file_time_type time;
  };
  std::map<std::string, Stamp> files;
  std::set<std::string> cubins;  // their bytes
};
CacheSnapshot snapshot_cache(const std::string& dir);

// The cubins in files added or changed since `before` that `before` did not
// hold: what the builds in between added to the cache.
std::vector<CacheCubin> cubins_since(const std::string& dir, const CacheSnapshot& before);

}  // namespace gpucmp::ptx

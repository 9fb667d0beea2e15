#include "jit_cache.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "cubin_elf.h"

namespace gpucmp::ptx {

namespace fs = std::filesystem;

bool CacheCubin::has_kernel(const std::string& name) const {
  return std::find(kernels.begin(), kernels.end(), name) != kernels.end();
}

std::vector<CacheCubin> cubins_in_bytes(std::string_view bytes, const std::string& file) {
  std::vector<CacheCubin> found;
  std::size_t at = 0;
  while ((at = bytes.find(kElfMagic, at)) != std::string_view::npos) {
    const std::string where = file + ": ELF at byte " + std::to_string(at);
    try {
      const std::string_view rest = bytes.substr(at);
      const std::size_t size = cubin_size(rest);
      if (size == 0) {  // another kind of ELF, or magic bytes by chance
        at += kElfMagic.size();
        continue;
      }
      CacheCubin c;
      c.file = file;
      c.offset = at;
      c.elf = std::string(rest.substr(0, size));
      c.sm = cubin_sm(c.elf);
      c.kernels = cubin_kernels(c.elf);
      found.push_back(std::move(c));
      at += size;
    } catch (const CubinError& e) {
      throw JitCacheError(where + ": " + e.what());
    }
  }
  return found;
}

std::vector<CacheCubin> cubins_in_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw JitCacheError(path + ": cannot open for reading");
  std::stringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw JitCacheError(path + ": read error");
  return cubins_in_bytes(bytes.str(), path);
}

std::vector<std::string> cache_files(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw JitCacheError(dir + ": not a folder (the driver's compute cache folder expected)");
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec)) files.push_back(it->path().string());
  }
  if (ec) throw JitCacheError(dir + ": cannot list (" + ec.message() + ")");
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<CacheCubin> cubins_in_cache(const std::string& dir) {
  std::vector<CacheCubin> all;
  for (const auto& f : cache_files(dir)) {
    auto found = cubins_in_file(f);
    all.insert(all.end(), std::make_move_iterator(found.begin()),
               std::make_move_iterator(found.end()));
  }
  return all;
}

namespace {
CacheSnapshot::Stamp stamp_of(const std::string& path) {
  std::error_code ec;
  CacheSnapshot::Stamp s;
  s.size = fs::file_size(path, ec);
  if (!ec) s.time = fs::last_write_time(path, ec);
  if (ec) throw JitCacheError(path + ": cannot stat (" + ec.message() + ")");
  return s;
}
}  // namespace

CacheSnapshot snapshot_cache(const std::string& dir) {
  CacheSnapshot snap;
  for (const auto& f : cache_files(dir)) {
    snap.files[f] = stamp_of(f);
    for (auto& c : cubins_in_file(f)) snap.cubins.insert(std::move(c.elf));
  }
  return snap;
}

std::vector<CacheCubin> cubins_since(const std::string& dir, const CacheSnapshot& before) {
  std::vector<CacheCubin> added;
  for (const auto& f : cache_files(dir)) {
    const auto old = before.files.find(f);
    if (old != before.files.end()) {
      const CacheSnapshot::Stamp now = stamp_of(f);
      if (now.size == old->second.size && now.time == old->second.time) continue;
    }
    for (auto& c : cubins_in_file(f))
      if (!before.cubins.count(c.elf)) added.push_back(std::move(c));
  }
  return added;
}

}  // namespace gpucmp::ptx

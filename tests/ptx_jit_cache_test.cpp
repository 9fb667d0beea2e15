// Cubins from the driver's compute cache (ptx/jit_cache.h, ptx/cubin_elf.h),
// on synthetic cache entries built around a real nvcc cubin
// (tests/fixtures/jit_cache/), and on real cache folders from a GPU when
// tests/fixtures/jit_cache/gpu/ holds one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "ptx/cubin_elf.h"
#include "ptx/jit_cache.h"

namespace gpucmp::ptx {
namespace {

namespace fs = std::filesystem;
const fs::path kFixtures = GPUCMP_JIT_CACHE_FIXTURES;

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

const std::string& fixture_cubin() {
  static const std::string bytes = read_bytes(kFixtures / "fixture_sm90.cubin");
  return bytes;
}

// Made-up bytes around a cubin, as a cache entry has (with a stray magic of a
// 32-bit ELF in the header, which is no cubin).
const std::string kEntryHeader = std::string("NVCACHE\0\x01\x02", 10) +
                                 "key=abc\x7f"
                                 "ELF\x01\x01" +
                                 std::string(21, '\0');
const std::string kEntryTrailer = std::string("\0\0trailer\xff\xfe", 11);

class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (fs::temp_directory_path() / "gpucmp-jit-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const fs::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

// The fixture cubin with one byte of its code changed: another valid cubin.
std::string other_cubin() {
  std::string c = fixture_cubin();
  c[0xa80 + 0x10] ^= 0x01;  // inside .text.gpucmp_fixture_axpy
  return c;
}

TEST(CubinElf, SizeKernelsAndSmOfARealCubin) {
  const std::string& c = fixture_cubin();
  ASSERT_GT(c.size(), 64u);
  EXPECT_EQ(cubin_size(c), c.size());
  EXPECT_EQ(cubin_size(c + "trailing bytes"), c.size());
  EXPECT_EQ(cubin_sm(c), 90);
  EXPECT_EQ(cubin_kernels(c),
            (std::vector<std::string>{"gpucmp_fixture_scale", "gpucmp_fixture_axpy"}));
}

TEST(CubinElf, OtherElfsAreNotCubins) {
  std::string c = fixture_cubin();
  c[18] = 62;  // e_machine EM_X86_64
  c[19] = 0;
  EXPECT_EQ(cubin_size(c), 0u);
  std::string elf32 = fixture_cubin();
  elf32[4] = 1;  // ELFCLASS32
  EXPECT_EQ(cubin_size(elf32), 0u);
  std::string big_endian = fixture_cubin();
  big_endian[5] = 2;
  EXPECT_EQ(cubin_size(big_endian), 0u);
  EXPECT_EQ(cubin_size("not an ELF"), 0u);
  EXPECT_THROW(cubin_kernels(c), CubinError);
}

TEST(CubinElf, CorruptSectionNameTableIsAnError) {
  std::string c = fixture_cubin();
  c[62] = 100;  // e_shstrndx past the 18 sections
  EXPECT_THROW(cubin_kernels(c), CubinError);
}

TEST(JitCache, OneCubinInsideACacheEntry) {
  const std::string entry = kEntryHeader + fixture_cubin() + kEntryTrailer;
  const auto found = cubins_in_bytes(entry, "entry");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].file, "entry");
  EXPECT_EQ(found[0].offset, kEntryHeader.size());
  EXPECT_EQ(found[0].elf, fixture_cubin());
  EXPECT_EQ(found[0].sm, 90);
  EXPECT_TRUE(found[0].has_kernel("gpucmp_fixture_axpy"));
  EXPECT_FALSE(found[0].has_kernel("matrixMul"));
}

TEST(JitCache, TwoCubinsInOneFile) {
  const std::string second = other_cubin();
  const std::string entry = kEntryHeader + fixture_cubin() + "gap" + second + kEntryTrailer;
  const auto found = cubins_in_bytes(entry, "two");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].offset, kEntryHeader.size());
  EXPECT_EQ(found[1].offset, kEntryHeader.size() + fixture_cubin().size() + 3);
  EXPECT_EQ(found[1].elf, second);
}

TEST(JitCache, WrongMachineIsSkipped) {
  std::string c = fixture_cubin();
  c[18] = 62;
  c[19] = 0;
  EXPECT_TRUE(cubins_in_bytes(kEntryHeader + c + kEntryTrailer, "x86").empty());
}

TEST(JitCache, TruncatedCubinIsAnErrorNamingTheFile) {
  const std::string& c = fixture_cubin();
  for (const std::size_t keep :
       {std::size_t(30), std::size_t(63), std::size_t(64), std::size_t(2000), c.size() - 1}) {
    SCOPED_TRACE(keep);
    try {
      cubins_in_bytes(kEntryHeader + c.substr(0, keep), "cache/ab/entry");
      ADD_FAILURE() << "no error for a cubin cut after " << keep << " bytes";
    } catch (const JitCacheError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("cache/ab/entry"), std::string::npos) << what;
      EXPECT_NE(what.find("byte " + std::to_string(kEntryHeader.size())), std::string::npos)
          << what;
      EXPECT_NE(what.find("truncated"), std::string::npos) << what;
    }
  }
}

TEST(JitCache, CorruptHeadersNeverCrash) {
  std::mt19937 rng(12);
  for (int i = 0; i < 3000; ++i) {
    std::string c = fixture_cubin();
    for (int flips = 0; flips < 3; ++flips) c[rng() % 64] = char(rng());
    if (i % 2) c[(rng() % 18) * 64 + 4296 + rng() % 64] = char(rng());  // the section table
    try {
      for (const auto& found : cubins_in_bytes(c, "fuzz")) EXPECT_LE(found.elf.size(), c.size());
    } catch (const JitCacheError&) {
    }
  }
}

TEST(JitCache, EmptyFolderHasNoFiles) {
  TempFolder dir;
  EXPECT_TRUE(cache_files(dir.str()).empty());
  EXPECT_TRUE(cubins_in_cache(dir.str()).empty());
}

TEST(JitCache, MissingFolderIsAClearError) {
  const std::string missing = "/nonexistent/gpucmp-jit-cache";
  try {
    cubins_in_cache(missing);
    ADD_FAILURE() << "no error";
  } catch (const JitCacheError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  EXPECT_THROW(snapshot_cache(missing), JitCacheError);
}

TEST(JitCache, NestedFoldersAndIndex) {
  TempFolder dir;
  write_bytes(dir.path() / "index", "an index, no cubins");
  write_bytes(dir.path() / "a" / "b" / "entry", kEntryHeader + fixture_cubin() + kEntryTrailer);
  const auto files = cache_files(dir.str());
  ASSERT_EQ(files.size(), 2u);
  const auto found = cubins_in_cache(dir.str());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].file, (dir.path() / "a" / "b" / "entry").string());
}

TEST(JitCache, SnapshotKeepsOnlyWhatABuildAdded) {
  TempFolder dir;
  write_bytes(dir.path() / "index", "v1");
  const CacheSnapshot empty = snapshot_cache(dir.str());
  EXPECT_TRUE(cubins_since(dir.str(), empty).empty());
  write_bytes(dir.path() / "1" / "first", kEntryHeader + fixture_cubin());
  write_bytes(dir.path() / "index", "v2 (longer)");
  ASSERT_EQ(cubins_since(dir.str(), empty).size(), 1u);

  const CacheSnapshot after_first = snapshot_cache(dir.str());
  EXPECT_TRUE(cubins_since(dir.str(), after_first).empty());
  // A new file with the same cubin (not new code) and one with another.
  write_bytes(dir.path() / "2" / "copy", fixture_cubin());
  write_bytes(dir.path() / "2" / "second", other_cubin() + kEntryTrailer);
  const auto added = cubins_since(dir.str(), after_first);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].elf, other_cubin());
  EXPECT_EQ(added[0].file, (dir.path() / "2" / "second").string());
}

TEST(JitCache, ExtractedCubinDisassembles) {
  std::string cuobjdump;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string d; std::getline(dirs, d, ':');)
      if (!d.empty() && fs::is_regular_file(fs::path(d) / "cuobjdump")) {
        cuobjdump = (fs::path(d) / "cuobjdump").string();
        break;
      }
  }
  if (cuobjdump.empty()) GTEST_SKIP() << "no cuobjdump on PATH";
  TempFolder dir;
  write_bytes(dir.path() / "e" / "entry", kEntryHeader + fixture_cubin() + kEntryTrailer);
  const auto found = cubins_in_cache(dir.str());
  ASSERT_EQ(found.size(), 1u);
  write_bytes(dir.path() / "out.cubin", found[0].elf);
  const std::string cmd = "'" + cuobjdump + "' -sass '" + (dir.path() / "out.cubin").string() + "'";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  EXPECT_EQ(pclose(pipe), 0);
  EXPECT_NE(out.find("Function : gpucmp_fixture_axpy"), std::string::npos) << out;
  EXPECT_NE(out.find("FFMA"), std::string::npos);
}

// A real cache folder from a GPU (tests/fixtures/jit_cache/gpu/): at least one
// sm_90 cubin with a kernel of gpucmp's OpenCL programs.
TEST(JitCacheGpuFixture, YieldsAnSm90CubinOfAKnownKernel) {
  const fs::path gpu = kFixtures / "gpu";
  std::vector<std::string> entries;
  for (const auto& f : cache_files(gpu.string())) {
    const std::string name = fs::path(f).filename().string();
    if (name != "README.md" && name != "expected-kernels.txt") entries.push_back(f);
  }
  if (entries.empty()) GTEST_SKIP() << gpu << " holds no cache files";
  std::vector<std::string> expected = {"matrixMul",     "cp_base",       "cp_unrollx8", "ComputeQ",
                                       "ComputePhiMag", "ComputeRhoPhi", "ComputeFH"};
  if (std::ifstream list(gpu / "expected-kernels.txt"); list) {
    expected.clear();
    for (std::string line; std::getline(list, line);)
      if (!line.empty()) expected.push_back(line);
  }
  int sm90 = 0, known = 0;
  for (const auto& c : cubins_in_cache(gpu.string())) {
    if (c.sm != 90) continue;
    ++sm90;
    for (const auto& k : expected) known += c.has_kernel(k);
  }
  EXPECT_GT(sm90, 0) << "no sm_90 cubin under " << gpu;
  EXPECT_GT(known, 0) << "no sm_90 cubin with an expected kernel under " << gpu;
}

}  // namespace
}  // namespace gpucmp::ptx

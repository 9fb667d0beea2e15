// Parboil's binary MRI input and output files.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "../../errors.h"
#include "../../options.h"
#include "mri.h"

namespace gpucmp::mri {

namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kMaxCount = 1 << 28;

class Reader {
 public:
  // Checked first: an ifstream opens a directory and then reports its size
  // as 2^63-1, and a FIFO would block the read.
  explicit Reader(const std::string& path) : path_(path) {
    if (const std::string why = why_not_input_file(path); !why.empty())
      throw UsageError(path + ": cannot open for reading: " + why);
    in_.open(path, std::ios::binary);
    if (!in_) throw UsageError(path + ": cannot open for reading");
    in_.seekg(0, std::ios::end);
    size_ = std::int64_t(in_.tellg());
    in_.seekg(0);
    if (size_ == 0) throw UsageError(path + ": empty file, not a Parboil file");
  }
  std::int32_t count(const char* field) {
    std::int32_t v = 0;
    read(&v, sizeof v, field);
    if (v <= 0 || v > kMaxCount)
      throw UsageError(path_ + ": field '" + field + "' = " + std::to_string(v) +
                       ": must be in 1.." + std::to_string(kMaxCount));
    return v;
  }
  std::vector<float> floats(std::int32_t n, const char* field) {
    std::vector<float> v(std::size_t(n), 0.0f);
    read(v.data(), v.size() * sizeof(float), field);
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!std::isfinite(v[i]))
        throw UsageError(path_ + ": field '" + field + "'[" + std::to_string(i) +
                         "] is not a finite number");
    return v;
  }
  // Checks the file size against the layout the counts imply, before reading
  // the arrays: `fields` are the (name, bytes) that follow the counts.
  void expect_layout(const std::vector<std::pair<const char*, std::int64_t>>& fields,
                     const std::string& layout) {
    std::int64_t bytes = std::int64_t(in_.tellg());
    for (const auto& [field, size] : fields) {
      if (size_ < bytes + size)
        throw UsageError(path_ + ": truncated in field '" + field + "': the file ends at byte " +
                         std::to_string(size_) + ", the field spans bytes " +
                         std::to_string(bytes) + ".." + std::to_string(bytes + size) + " (" +
                         layout + ")");
      bytes += size;
    }
    if (size_ > bytes)
      throw UsageError(path_ + ": oversized: " + std::to_string(size_) + " bytes, but " + layout +
                       " needs " + std::to_string(bytes) + " (" + std::to_string(size_ - bytes) +
                       " extra after the last field)");
  }

 private:
  void read(void* dst, std::size_t bytes, const char* field) {
    const std::int64_t at = std::int64_t(in_.tellg());
    in_.read(static_cast<char*>(dst), std::streamsize(bytes));
    if (std::size_t(in_.gcount()) != bytes)
      throw UsageError(path_ + ": truncated in field '" + field + "': the file ends at byte " +
                       std::to_string(size_) + ", the field spans bytes " + std::to_string(at) +
                       ".." + std::to_string(at + std::int64_t(bytes)));
  }
  std::string path_;
  std::ifstream in_;
  std::int64_t size_ = 0;
};

// Writes a regular `path` as a temporary file beside it, renamed over `path`
// by close(): a failed or interrupted write leaves no partial file under the
// real name. A device (/dev/null) is written in place.
class Writer {
 public:
  explicit Writer(const std::string& path) : path_(path) {
    if (const std::string why = why_not_output_file(path); !why.empty())
      throw UsageError(path + ": cannot open for writing: " + why);
    std::error_code ec;
    const bool device = fs::exists(path, ec) && !fs::is_regular_file(path, ec);
    temp_ = device ? "" : path + ".partial-" + std::to_string(::getpid());
    out_.open(device ? path : temp_, std::ios::binary);
    if (!out_) throw UsageError(path + ": cannot open for writing: " + std::strerror(errno));
  }
  ~Writer() {
    if (!closed_ && !temp_.empty()) std::remove(temp_.c_str());
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  void count(std::int32_t v) { write(&v, sizeof v); }
  void floats(const std::vector<float>& v) { write(v.data(), v.size() * sizeof(float)); }
  // Flushes and renames; a write that fails only now (full disk) is reported too.
  void close() {
    out_.close();
    if (!out_) throw UsageError(path_ + ": write failed (on close)");
    if (!temp_.empty() && std::rename(temp_.c_str(), path_.c_str()) != 0)
      throw UsageError(path_ + ": cannot rename " + temp_ + " to it: " + std::strerror(errno));
    closed_ = true;
  }

 private:
  void write(const void* src, std::size_t bytes) {
    out_.write(static_cast<const char*>(src), std::streamsize(bytes));
    if (!out_) throw UsageError(path_ + ": write failed");
  }
  std::string path_, temp_;
  std::ofstream out_;
  bool closed_ = false;
};

}  // namespace

Dataset read_parboil_input(const std::string& path, Kind kind) {
  Reader r(path);
  Dataset d;
  d.numK = r.count("numK");
  d.numX = r.count("numX");
  const std::int64_t k = 4 * std::int64_t(d.numK), x = 4 * std::int64_t(d.numX);
  std::vector<std::pair<const char*, std::int64_t>> layout = {
      {"kx", k}, {"ky", k}, {"kz", k}, {"x", x}, {"y", x}, {"z", x}, {"phiR", k}, {"phiI", k}};
  if (kind == Kind::fhd) layout.insert(layout.end(), {{"dR", k}, {"dI", k}});
  r.expect_layout(layout, std::string(workload_name(kind)) + " input with numK=" +
                              std::to_string(d.numK) + ", numX=" + std::to_string(d.numX));
  d.kx = r.floats(d.numK, "kx");
  d.ky = r.floats(d.numK, "ky");
  d.kz = r.floats(d.numK, "kz");
  d.x = r.floats(d.numX, "x");
  d.y = r.floats(d.numX, "y");
  d.z = r.floats(d.numX, "z");
  d.phiR = r.floats(d.numK, "phiR");
  d.phiI = r.floats(d.numK, "phiI");
  if (kind == Kind::fhd) {
    d.dR = r.floats(d.numK, "dR");
    d.dI = r.floats(d.numK, "dI");
  }
  d.origin = path;
  return d;
}

void write_parboil_input(const std::string& path, const Dataset& d, Kind kind) {
  Writer w(path);
  w.count(d.numK);
  w.count(d.numX);
  for (const auto* v : {&d.kx, &d.ky, &d.kz, &d.x, &d.y, &d.z, &d.phiR, &d.phiI}) w.floats(*v);
  if (kind == Kind::fhd) {
    w.floats(d.dR);
    w.floats(d.dI);
  }
  w.close();
}

void write_parboil_output(const std::string& path, const std::vector<float>& re,
                          const std::vector<float>& im) {
  if (re.size() != im.size() || re.empty())
    throw UsageError(path + ": cannot write an output of " + std::to_string(re.size()) +
                     " real and " + std::to_string(im.size()) + " imaginary values");
  Writer w(path);
  w.count(std::int32_t(re.size()));
  w.floats(re);
  w.floats(im);
  w.close();
}

std::pair<std::vector<float>, std::vector<float>> read_parboil_output(const std::string& path) {
  Reader r(path);
  const std::int32_t n = r.count("numX");
  r.expect_layout({{"real", 4 * std::int64_t(n)}, {"imaginary", 4 * std::int64_t(n)}},
                  "output with numX=" + std::to_string(n));
  auto re = r.floats(n, "real");
  auto im = r.floats(n, "imaginary");
  return {std::move(re), std::move(im)};
}

}  // namespace gpucmp::mri

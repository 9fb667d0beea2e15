#include "rodinia_files.h"

#include <cstdio>
#include <fstream>

#include "../../errors.h"

namespace gpucmp::heartwall {

namespace {

constexpr std::uint32_t kFramesPerSecond = 25;
constexpr std::uint32_t kAvifHasIndex = 0x10;   // avih flags: idx1 present
constexpr std::uint32_t kAviifKeyframe = 0x10;  // idx1 flags: every frame stands alone

// Little-endian RIFF bytes: chunks are opened with their size left blank and
// closed by patching it in (and padding to an even length, as RIFF wants).
class RiffWriter {
 public:
  void fourcc(const char* code) { bytes_.insert(bytes_.end(), code, code + 4); }
  void u16(std::uint32_t v) {
    for (int i = 0; i < 2; ++i) bytes_.push_back(std::uint8_t(v >> (8 * i)));
  }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(std::uint8_t(v >> (8 * i)));
  }
  void append(const std::uint8_t* p, std::size_t n) { bytes_.insert(bytes_.end(), p, p + n); }

  // "id size" (and the list type for RIFF and LIST); returns where the size is.
  std::size_t open(const char* id, const char* list_type = nullptr) {
    fourcc(id);
    const std::size_t at = bytes_.size();
    u32(0);
    if (list_type) fourcc(list_type);
    return at;
  }
  void close(std::size_t size_at) {
    const auto size = std::uint32_t(bytes_.size() - size_at - 4);
    for (int i = 0; i < 4; ++i) bytes_[size_at + std::size_t(i)] = std::uint8_t(size >> (8 * i));
    if (bytes_.size() % 2) bytes_.push_back(0);
  }

  std::size_t size() const { return bytes_.size(); }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<std::uint8_t> bytes_;
};

// 'avih': the file's main header.
void main_header(RiffWriter& w, const Sequence& s, std::uint32_t frame_bytes) {
  const std::size_t at = w.open("avih");
  w.u32(1000000 / kFramesPerSecond);      // microseconds a frame
  w.u32(frame_bytes * kFramesPerSecond);  // bytes a second
  w.u32(0);                               // padding granularity
  w.u32(kAvifHasIndex);                   // flags
  w.u32(std::uint32_t(s.frames));         // frames
  w.u32(0);                               // initial frames
  w.u32(1);                               // streams
  w.u32(frame_bytes);                     // suggested buffer size
  w.u32(std::uint32_t(s.width));          // width
  w.u32(std::uint32_t(s.height));         // height
  for (int i = 0; i < 4; ++i) w.u32(0);   // reserved
  w.close(at);
}

// 'strl': the video stream's header ('strh') and format ('strf': a
// BITMAPINFOHEADER and a grey palette). avilib reads the frame count at
// strh + 32 and the width and height at strf + 4 and + 8.
void stream_list(RiffWriter& w, const Sequence& s, std::uint32_t frame_bytes) {
  const std::size_t list = w.open("LIST", "strl");
  const std::size_t strh = w.open("strh");
  w.fourcc("vids");
  w.fourcc("DIB ");                // handler: uncompressed
  w.u32(0);                        // flags
  w.u16(0);                        // priority
  w.u16(0);                        // language
  w.u32(0);                        // initial frames
  w.u32(1);                        // scale
  w.u32(kFramesPerSecond);         // rate: rate / scale frames a second
  w.u32(0);                        // start
  w.u32(std::uint32_t(s.frames));  // length in frames
  w.u32(frame_bytes);              // suggested buffer size
  w.u32(0xffffffffU);              // quality: default
  w.u32(0);                        // sample size: varies (video)
  w.u16(0);                        // frame rectangle: left, top, right, bottom
  w.u16(0);
  w.u16(std::uint32_t(s.width));
  w.u16(std::uint32_t(s.height));
  w.close(strh);
  const std::size_t strf = w.open("strf");
  w.u32(40);  // BITMAPINFOHEADER's size
  w.u32(std::uint32_t(s.width));
  w.u32(std::uint32_t(s.height));  // positive: rows bottom-up
  w.u16(1);                        // planes
  w.u16(8);                        // bits a pixel
  w.u32(0);                        // BI_RGB: uncompressed
  w.u32(frame_bytes);              // image size
  w.u32(0);                        // pixels a metre, x and y
  w.u32(0);
  w.u32(256);                                                           // palette entries used
  w.u32(0);                                                             // important: all
  for (std::uint32_t g = 0; g < 256; ++g) w.u32(g | g << 8 | g << 16);  // blue, green, red, 0
  w.close(strf);
  w.close(list);
}

void write_file(const std::string& path, const char* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(data, std::streamsize(size));
  if (!out) throw UsageError("heartwall: cannot write " + path);
}

}  // namespace

std::string rodinia_input_txt(const Sequence& s, const TrackerConstants& c) {
  char head[96];
  std::snprintf(head, sizeof head, "%d %d %d %g\n%d %d\n", c.t_size, c.s_size, c.max_move, c.alpha,
                int(s.endo.size()), int(s.epi.size()));
  std::string text = head;
  const auto line = [&text](const std::vector<Point>& points, int Point::*coordinate) {
    for (std::size_t i = 0; i < points.size(); ++i)
      text += (i ? " " : "") + std::to_string(points[i].*coordinate + 1);
    text += '\n';
  };
  line(s.endo, &Point::row);
  line(s.endo, &Point::col);
  line(s.epi, &Point::row);
  line(s.epi, &Point::col);
  return text;
}

std::vector<std::uint8_t> rodinia_avi(const Sequence& s) {
  const auto width = std::size_t(s.width);
  const auto frame_bytes = std::uint32_t(width * std::size_t(s.height));
  RiffWriter w;
  const std::size_t riff = w.open("RIFF", "AVI ");
  const std::size_t hdrl = w.open("LIST", "hdrl");
  main_header(w, s, frame_bytes);
  stream_list(w, s, frame_bytes);
  w.close(hdrl);

  const std::size_t movi = w.open("LIST", "movi");
  const std::size_t movi_type = movi + 4;  // idx1's offsets count from the 'movi' code
  std::vector<std::uint32_t> offsets;
  for (int f = 0; f < s.frames; ++f) {
    offsets.push_back(std::uint32_t(w.size() - movi_type));
    const std::size_t chunk = w.open("00db");
    for (int row = s.height - 1; row >= 0; --row)
      w.append(s.frame(f) + std::size_t(row) * width, width);
    w.close(chunk);
  }
  w.close(movi);

  const std::size_t idx1 = w.open("idx1");
  for (const std::uint32_t offset : offsets) {
    w.fourcc("00db");
    w.u32(kAviifKeyframe);
    w.u32(offset);
    w.u32(frame_bytes);
  }
  w.close(idx1);
  w.close(riff);
  return w.take();
}

std::string rodinia_result_txt(const TrackResult& t, int video_frames, int endo_points) {
  std::string out = "Total AVI Frames: " + std::to_string(video_frames) +
                    "\nFrames Processed: " + std::to_string(t.frames) +
                    "\nendoPoints: " + std::to_string(endo_points) +
                    "\nepiPoints: " + std::to_string(t.points - endo_points);
  const auto values = [&](int frame, int first, int last, bool rows) {
    std::string line;
    for (int i = first; i < last; ++i)
      line += std::to_string((rows ? t.at(frame, i).row : t.at(frame, i).col) + 1) + "\t";
    return line;
  };
  for (int f = 0; f < t.frames; ++f) {
    out += "\n---Frame " + std::to_string(f) + "---\n--endo--\n";
    out += values(f, 0, endo_points, true) + "\n" + values(f, 0, endo_points, false);
    out += "\n--epi--\n";
    out += values(f, endo_points, t.points, true) + "\n" + values(f, endo_points, t.points, false);
  }
  return out;
}

void write_rodinia_input_txt(const Sequence& s, const std::string& path,
                             const TrackerConstants& c) {
  const std::string text = rodinia_input_txt(s, c);
  write_file(path, text.data(), text.size());
}

void write_rodinia_avi(const Sequence& s, const std::string& path) {
  const std::vector<std::uint8_t> bytes = rodinia_avi(s);
  write_file(path, reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

void write_rodinia_result_txt(const TrackResult& t, int video_frames, int endo_points,
                              const std::string& path) {
  const std::string text = rodinia_result_txt(t, video_frames, endo_points);
  write_file(path, text.data(), text.size());
}

}  // namespace gpucmp::heartwall

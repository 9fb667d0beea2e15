// HeartWall's generated sequence as the two files Rodinia 3.1's heartwall
// reads, so that Rodinia's own binaries can run on it (docs/studies/heartwall.md
// "The input"):
//  - the video: an uncompressed AVI as its avilib reads it (RIFF 'AVI ' with
//    hdrl, one 'vids' stream of 8-bit DIB frames, movi and an idx1 index);
//  - input.txt: the tracker's constants, the point counts and the points;
// and the CPU reference's track in the form of the result.txt that Rodinia's
// programs write when built with -DOUTPUT, to compare theirs with.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sequence.h"
#include "tracking.h"

namespace gpucmp::heartwall {

// The tracker's constants as Rodinia 3.1's input.txt holds them: the template
// is (2 t_size + 1)^2 pixels, the search window (2 s_size + 1)^2, a point
// moves at most within a max_move^2 box a frame, and every 10 frames the
// templates are blended alpha : 1 - alpha with the current frame.
struct TrackerConstants {
  int t_size = 25;
  int s_size = 40;
  int max_move = 10;
  double alpha = 0.87;
};

// input.txt: "tSize sSize maxMove alpha", "endoPoints epiPoints", then the
// endocardium's rows, its columns, the epicardium's rows, its columns, one
// line each. Rodinia counts rows and columns from 1 (MATLAB's habit: its
// kernels read pixel (row - 1, col - 1) at a point), so 1 is added to ours.
std::string rodinia_input_txt(const Sequence& s, const TrackerConstants& c = {});

// The AVI, 25 frames a second. Each frame is one '00db' chunk of exactly
// width x height bytes, rows bottom-up (a DIB's order: Rodinia's get_frame
// flips them back) and not padded to 4 bytes: Rodinia reads a frame into a
// buffer of width x height bytes and indexes it without padding. A 256-level
// grey palette follows the BITMAPINFOHEADER.
std::vector<std::uint8_t> rodinia_avi(const Sequence& s);

// result.txt as Rodinia 3.1's write_data() prints it (cuda/heartwall/main.cu,
// opencl/heartwall/main.c): "Total AVI Frames: V", "Frames Processed: N",
// "endoPoints: E", "epiPoints: P", then per frame "---Frame f---", "--endo--",
// the endocardium's rows and its columns (one line each, every value followed
// by a tab), "--epi--", the epicardium's rows and columns; counted from 1.
std::string rodinia_result_txt(const TrackResult& t, int video_frames, int endo_points);

// Written to files (UsageError if a file cannot be written).
void write_rodinia_input_txt(const Sequence& s, const std::string& path,
                             const TrackerConstants& c = {});
void write_rodinia_avi(const Sequence& s, const std::string& path);
void write_rodinia_result_txt(const TrackResult& t, int video_frames, int endo_points,
                              const std::string& path);

}  // namespace gpucmp::heartwall

// Data layout as a benchmark axis (after Yamanaka 2014): a record
// type is described once (records.json); scripts/gen_layouts.py generates
// its accessors for AoS, SoA and AoSoA (gpucmp_layouts.h, shared by CUDA,
// OpenCL C and this file), and kernels written against them are compiled
// once per layout. Here: the host side, the layout of a row and the
// conversion between layouts, with the same index the kernels use.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace gpucmp::layout {

// Array of structures (record i's words together), structure of arrays (word
// w of every record together), and AoSoA: tiles of `tile` records, each tile
// a small SoA.
enum class Layout { aos = 0, soa = 1, aosoa = 2 };

std::string to_string(Layout layout);
// "aos", "soa", "aosoa"; throws UsageError naming `what` otherwise.
Layout parse_layout(const std::string& text, const std::string& what);

// A workload's `layout:` row axis: the option `name` (e.g. "--lavamd-layout",
// comma-separated aos, soa, aosoa) and the layouts its rows take, all it
// offers when the option was not given. A workload that cannot use every
// layout offers fewer and says why (heartwall: "AoSoA's tiles of 32 do not
// divide its 51 points"); naming another is a UsageError with that reason.
class LayoutAxis {
 public:
  LayoutAxis() = default;
  LayoutAxis(std::vector<Layout> offered, std::string why_not_others);
  void add_option(CLI::App& app, const std::string& name, const std::string& what);
  std::vector<Layout> rows() const;
  // What the option's value names, checked as add_option's parser checks it.
  Layout parse(const std::string& text, const std::string& name) const;

 private:
  std::vector<Layout> offered_{Layout::aos, Layout::soa, Layout::aosoa};
  std::string why_not_others_;
  std::vector<Layout> chosen_;  // empty: not given
};

// A layout workload's kernel variant: its program and the row's layout.
struct Variant {
  std::string name;             // "base"
  Layout layout = Layout::aos;  // set by the harness: the row's layout:
};
// The OpenCL program (registered beside the lavamd runner) and cross-run PTX of a row:
// `name` for AoS, `name-soa`, `name-aosoa`.
std::string program_name(const Variant& v);

constexpr int kDefaultTile = 32;  // AoSoA records per tile (a warp)

// Why `layout` cannot hold `records` records in tiles of `tile` ("the AoSoA
// tile of 32 records does not divide the 2700 records"), "" when it can
// (AoSoA only: the other layouts take any count).
std::string tile_mismatch(Layout layout, int tile, std::size_t records);

// Where word w of record i of n records of `words` words lies: the generated
// GPUCMP_LAYOUT_INDEX, the kernels' own index.
std::size_t index(Layout layout, int tile, std::size_t n, int words, std::size_t i, int w);

// Copies n records of `words` words from `src` in layout `from` to `dst` in
// layout `to` (the study's host conversion); src and dst must not overlap.
void convert(const float* src, Layout from, float* dst, Layout to, std::size_t n, int words,
             int tile);
// The same conversion with the records split over the host's threads
// (parallel_for.h): the runners' conversions outside every timed region.
// layoutconv's host_convert_ms times convert, on one thread.
void convert_parallel(const float* src, Layout from, float* dst, Layout to, std::size_t n,
                      int words, int tile);

// The runners' side of the study's host conversion: n records of `words`
// words kept in AoS on the host, `to` on the device (tiles of kDefaultTile).
std::vector<float> from_aos(const std::vector<float>& aos, Layout to, std::size_t n, int words);
void to_aos(const std::vector<float>& data, Layout from, std::vector<float>& aos, std::size_t n,
            int words);

}  // namespace gpucmp::layout

#include "layouts.h"

#include <gpucmp_layouts.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <utility>

#include "../../errors.h"
#include "../../options.h"
#include "../../parallel_for.h"

namespace gpucmp::layout {

std::string to_string(Layout layout) {
  switch (layout) {
    case Layout::aos:
      return "aos";
    case Layout::soa:
      return "soa";
    case Layout::aosoa:
      return "aosoa";
  }
  return "?";
}

Layout parse_layout(const std::string& text, const std::string& what) {
  for (Layout l : {Layout::aos, Layout::soa, Layout::aosoa})
    if (text == to_string(l)) return l;
  throw UsageError(what + " " + text + ": not a layout (aos, soa, aosoa)");
}

LayoutAxis::LayoutAxis(std::vector<Layout> offered, std::string why_not_others)
    : offered_(std::move(offered)), why_not_others_(std::move(why_not_others)) {}

namespace {
std::string names(const std::vector<Layout>& layouts) {
  std::string out;
  for (Layout l : layouts) out += (out.empty() ? "" : ", ") + to_string(l);
  return out;
}
}  // namespace

Layout LayoutAxis::parse(const std::string& text, const std::string& name) const {
  const Layout l = parse_layout(text, name);
  if (std::find(offered_.begin(), offered_.end(), l) == offered_.end())
    throw UsageError(name + " " + text + ": not offered (" + names(offered_) +
                     "): " + why_not_others_);
  return l;
}

void LayoutAxis::add_option(CLI::App& app, const std::string& name, const std::string& what) {
  const std::string all = offered_.size() == 3 ? "all three" : names(offered_);
  add_checked_list_option(
      app, name,
      [this, name](const std::vector<std::string>& items) {
        for (const auto& text : items) chosen_.push_back(parse(text, name));
      },
      what + " (comma-separated " + names(offered_) + "; default " + all + ")")
      ->type_name("LIST");
}

std::vector<Layout> LayoutAxis::rows() const {
  if (!chosen_.empty()) return chosen_;
  return offered_;
}

std::string program_name(const Variant& v) {
  if (v.layout == Layout::aos) return v.name;
  return v.name + "-" + to_string(v.layout);
}

std::string tile_mismatch(Layout layout, int tile, std::size_t records) {
  if (tile < 1) return "the AoSoA tile must be at least 1";
  if (layout == Layout::aosoa && records % std::size_t(tile) != 0)
    return "the AoSoA tile of " + std::to_string(tile) + " records does not divide the " +
           std::to_string(records) + " records";
  return "";
}

std::size_t index(Layout layout, int tile, std::size_t n, int words, std::size_t i, int w) {
  const int l = int(layout);
  return GPUCMP_LAYOUT_INDEX(l, tile, n, words, i, w);
}

namespace {
void convert_records(const float* src, Layout from, float* dst, Layout to, std::size_t n, int words,
                     int tile, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i)
    for (int w = 0; w < words; ++w)
      dst[index(to, tile, n, words, i, w)] = src[index(from, tile, n, words, i, w)];
}
}  // namespace

void convert(const float* src, Layout from, float* dst, Layout to, std::size_t n, int words,
             int tile) {
  // Record by record, word by word: the destination's order for AoS and
  // AoSoA writes, which the host's caches favour; SoA reads stride n.
  convert_records(src, from, dst, to, n, words, tile, 0, n);
}

void convert_parallel(const float* src, Layout from, float* dst, Layout to, std::size_t n,
                      int words, int tile) {
  // Each thread converts its own records, whose words no other record shares.
  parallel_for(n, std::size_t(1) << 16, [&](std::size_t begin, std::size_t end, unsigned) {
    convert_records(src, from, dst, to, n, words, tile, begin, end);
  });
}

std::vector<float> from_aos(const std::vector<float>& aos, Layout to, std::size_t n, int words) {
  std::vector<float> out(aos.size());
  convert_parallel(aos.data(), Layout::aos, out.data(), to, n, words, kDefaultTile);
  return out;
}

void to_aos(const std::vector<float>& data, Layout from, std::vector<float>& aos, std::size_t n,
            int words) {
  aos.resize(data.size());
  convert_parallel(data.data(), from, aos.data(), Layout::aos, n, words, kDefaultTile);
}

}  // namespace gpucmp::layout

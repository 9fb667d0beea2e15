#include "halo_split.h"

#include <algorithm>
#include <string>

#include "../../errors.h"

namespace gpucmp::advection {

std::vector<RowRange> split_rows(int ny, int parts) {
  if (parts == 1) return {{0, ny}};
  if (parts != 2)
    throw Unavailable("advection splits its rows over 1 or 2 devices, not " +
                      std::to_string(parts));
  const int mid = 64 * (ny / 128);
  if (mid <= 0 || mid >= ny)
    throw Unavailable("ny " + std::to_string(ny) +
                      ": the split at 64 x floor(ny / 128) leaves a part empty");
  return {{0, mid}, {mid, ny - mid}};
}

HaloPart halo_part(const std::vector<RowRange>& parts, int i, int ny) {
  HaloPart h;
  h.own = parts.at(std::size_t(i));
  const int first = std::max(0, h.own.first - kHaloRows);
  h.resident = {first, std::min(ny, h.own.end() + kHaloRows) - first};
  const bool has_up = i > 0, has_down = i + 1 < int(parts.size());
  const int top = h.own.first + (has_up ? kHaloRows : 0);
  const int bottom = h.own.end() - (has_down ? kHaloRows : 0);
  h.interior = {top, std::max(0, bottom - top)};
  if (has_up) {
    h.up = i - 1;
    h.send_up = {h.own.first, kHaloRows};
    h.recv_up = {h.own.first - kHaloRows, kHaloRows};
  }
  if (has_down) {
    h.down = i + 1;
    h.send_down = {h.own.end() - kHaloRows, kHaloRows};
    h.recv_down = {h.own.end(), kHaloRows};
  }
  return h;
}

}  // namespace gpucmp::advection

// The row split of advection over one or two devices (issue 18, item 4), as
// the challenge states it: rows split at mid = 64 x floor(ny / 128); each
// part computes its own rows and needs the other's 2 rows next to the split
// every step. What a part holds, sends and receives, and which of its rows
// need no halo (the interior, computed while the halo is exchanged), are
// stated here once for both APIs and every transport.
#pragma once
#include <vector>

namespace gpucmp::advection {

struct RowRange {
  int first = 0, count = 0;
  int end() const { return first + count; }
  bool operator==(const RowRange& o) const { return first == o.first && count == o.count; }
};

// The parts' own rows: one part, every row; two, [0, mid) and [mid, ny).
// Throws Unavailable for more than two parts, or where mid leaves a part
// empty (ny = 64).
std::vector<RowRange> split_rows(int ny, int parts);

constexpr int kHaloRows = 2;

struct HaloPart {
  RowRange own;                   // the rows this part computes
  RowRange resident;              // own plus the halo rows it reads (the device buffer's rows)
  RowRange interior;              // own rows whose five source rows are all its own
  int up = -1, down = -1;         // the neighbouring parts (rows above / below), -1: none
  RowRange send_up, recv_up;      // rows sent to and received from `up`
  RowRange send_down, recv_down;  // rows sent to and received from `down`
};

// Part i of `parts` (split_rows) over ny rows.
HaloPart halo_part(const std::vector<RowRange>& parts, int i, int ny);

}  // namespace gpucmp::advection

#include "line_diff.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

namespace gpucmp::ptx {
namespace {

// Beyond this many differences the O(D^2) trace is not kept (memory); the
// differing middle is then replaced as a whole.
constexpr long long kMaxDifferences = 4000;

// Myers on integer ids; edits cover a[0..n) and b[0..m) with offsets added.
bool myers(const std::vector<int>& a, const std::vector<int>& b, int a0, int b0,
           std::vector<LineEdit>& out) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  const int max = n + m;
  std::vector<int> v(2 * static_cast<std::size_t>(max) + 3, 0);
  const int off = max + 1;
  std::vector<std::vector<int>> trace;  // trace[d][k + d] = V[k] after step d
  int found = -1;
  for (int d = 0; d <= max && d <= kMaxDifferences; ++d) {
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1]
                                                                       : v[off + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[off + k] = x;
    }
    trace.emplace_back(v.begin() + off - d, v.begin() + off + d + 1);
    if (v[off + n - m] >= n && ((n - m) - d) % 2 == 0 && std::abs(n - m) <= d) {
      found = d;
      break;
    }
  }
  if (found < 0) return false;
  std::vector<LineEdit> rev;
  int x = n, y = m;
  for (int d = found; d > 0; --d) {
    const std::vector<int>& prev = trace[d - 1];  // prev[k + d - 1]
    const int k = x - y;
    const auto at = [&](int kk) { return prev[kk + d - 1]; };
    const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
    const int prev_k = down ? k + 1 : k - 1;
    const int prev_x = at(prev_k), prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      --x, --y;
      rev.push_back({LineEdit::Op::Keep, a0 + x, b0 + y});
    }
    if (down) {
      --y;
      rev.push_back({LineEdit::Op::Add, a0 + x, b0 + y});
    } else {
      --x;
      rev.push_back({LineEdit::Op::Remove, a0 + x, b0 + y});
    }
  }
  while (x > 0 && y > 0) {
    --x, --y;
    rev.push_back({LineEdit::Op::Keep, a0 + x, b0 + y});
  }
  out.insert(out.end(), rev.rbegin(), rev.rend());
  return true;
}

struct Hunk {
  std::size_t first = 0, last = 0;  // edit indices [first, last)
};

std::string hunk_range(int start, int length) {
  const int shown = length == 0 ? start : start + 1;
  return std::to_string(shown) + (length == 1 ? "" : "," + std::to_string(length));
}

}  // namespace

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::vector<LineEdit> diff_lines(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b) {
  std::unordered_map<std::string, int> ids;
  auto id_of = [&](const std::string& s) {
    return ids.emplace(s, static_cast<int>(ids.size())).first->second;
  };
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  std::vector<LineEdit> out;
  for (std::size_t i = 0; i < prefix; ++i)
    out.push_back({LineEdit::Op::Keep, static_cast<int>(i), static_cast<int>(i)});
  std::vector<int> mid_a, mid_b;
  for (std::size_t i = prefix; i < a.size() - suffix; ++i) mid_a.push_back(id_of(a[i]));
  for (std::size_t i = prefix; i < b.size() - suffix; ++i) mid_b.push_back(id_of(b[i]));
  const int p = static_cast<int>(prefix);
  if (!myers(mid_a, mid_b, p, p, out)) {
    for (std::size_t i = 0; i < mid_a.size(); ++i)
      out.push_back({LineEdit::Op::Remove, p + static_cast<int>(i), p});
    for (std::size_t i = 0; i < mid_b.size(); ++i)
      out.push_back(
          {LineEdit::Op::Add, p + static_cast<int>(mid_a.size()), p + static_cast<int>(i)});
  }
  for (std::size_t i = 0; i < suffix; ++i)
    out.push_back({LineEdit::Op::Keep, static_cast<int>(a.size() - suffix + i),
                   static_cast<int>(b.size() - suffix + i)});
  return out;
}

std::string unified_diff(const std::string& text_a, const std::string& text_b,
                         const std::string& name_a, const std::string& name_b, int context) {
  if (text_a == text_b) return "";
  const std::vector<std::string> a = split_lines(text_a), b = split_lines(text_b);
  const std::vector<LineEdit> edits = diff_lines(a, b);
  const std::size_t ctx = static_cast<std::size_t>(std::max(context, 0));
  // Group changes closer than 2 * context lines into one hunk.
  std::vector<Hunk> hunks;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    if (edits[i].op == LineEdit::Op::Keep) continue;
    const std::size_t first = i >= ctx ? i - ctx : 0;
    std::size_t j = i;
    while (j < edits.size() && edits[j].op != LineEdit::Op::Keep) ++j;
    const std::size_t last = std::min(edits.size(), j + ctx);
    if (!hunks.empty() && first <= hunks.back().last) {
      hunks.back().last = last;
    } else {
      hunks.push_back({first, last});
    }
    i = j - 1;
  }
  std::string out = "--- " + name_a + "\n+++ " + name_b + "\n";
  for (const Hunk& h : hunks) {
    int a_len = 0, b_len = 0;
    for (std::size_t i = h.first; i < h.last; ++i) {
      if (edits[i].op != LineEdit::Op::Add) ++a_len;
      if (edits[i].op != LineEdit::Op::Remove) ++b_len;
    }
    out += "@@ -" + hunk_range(edits[h.first].a, a_len) + " +" +
           hunk_range(edits[h.first].b, b_len) + " @@\n";
    for (std::size_t i = h.first; i < h.last; ++i) {
      const LineEdit& e = edits[i];
      if (e.op == LineEdit::Op::Keep) out += " " + a[e.a] + "\n";
      if (e.op == LineEdit::Op::Remove) out += "-" + a[e.a] + "\n";
      if (e.op == LineEdit::Op::Add) out += "+" + b[e.b] + "\n";
    }
  }
  return out;
}

}  // namespace gpucmp::ptx

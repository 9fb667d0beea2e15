// A line diff (Myers' O(ND) algorithm) and its unified-diff rendering.
#pragma once
#include <string>
#include <vector>

namespace gpucmp::ptx {

struct LineEdit {
  enum class Op { Keep, Remove, Add };
  Op op = Op::Keep;
  int a = 0;  // line index in A (for Add: the A lines consumed so far)
  int b = 0;  // line index in B (for Remove: the B lines consumed so far)
};

// A shortest edit script from a to b (not guaranteed shortest when the files
// differ in thousands of lines: then the middle is replaced as a whole).
std::vector<LineEdit> diff_lines(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b);

// "--- name_a" / "+++ name_b" and @@ hunks with `context` lines around changes;
// "" when the texts are equal.
std::string unified_diff(const std::string& text_a, const std::string& text_b,
                         const std::string& name_a, const std::string& name_b, int context = 3);

std::vector<std::string> split_lines(const std::string& text);

}  // namespace gpucmp::ptx

#include "sass.h"

#include <array>
#include <utility>

namespace gpucmp::ptx {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

bool is_hex(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  return true;
}

bool is_opcode_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

// The opcode of an instruction line, or "" when the line holds none.
std::string_view instruction_opcode(std::string_view line) {
  line = trim_left(line);
  if (!starts_with(line, "/*")) return {};
  const std::size_t close = line.find("*/");
  if (close == std::string_view::npos || !is_hex(line.substr(2, close - 2))) return {};
  line = trim_left(line.substr(close + 2));
  if (starts_with(line, "{")) line = trim_left(line.substr(1));
  if (starts_with(line, "@")) {
    const std::size_t space = line.find_first_of(" \t");
    if (space == std::string_view::npos) return {};
    line = trim_left(line.substr(space));
  }
  std::size_t n = 0;
  while (n < line.size() && is_opcode_char(line[n])) ++n;
  if (n == 0 || line[0] < 'A' || line[0] > 'Z') return {};
  return line.substr(0, n);
}

}  // namespace

std::string sass_class(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  if (starts_with(opcode, "IMAD.MOV")) return "mov";  // IMAD.MOV.U32 Rd, RZ, RZ, x: a move
  static const std::array<std::pair<std::string_view, std::string_view>, 46> kExact = {{
      {"FFMA", "fma.f32"},    {"FFMA32I", "fma.f32"},  {"DFMA", "fma.f64"},
      {"FMUL", "mul.f32"},    {"FMUL32I", "mul.f32"},  {"DMUL", "mul.f64"},
      {"FADD", "add.f32"},    {"FADD32I", "add.f32"},  {"DADD", "add.f64"},
      {"LDG", "ld.global"},   {"STG", "st.global"},    {"LDS", "ld.shared"},
      {"LDSM", "ld.shared"},  {"STS", "st.shared"},    {"LDC", "ld.const"},
      {"ULDC", "ld.const"},   {"LDL", "ld.local"},     {"STL", "st.local"},
      {"LD", "ld.other"},     {"ST", "st.other"},      {"MUFU", "sfu"},
      {"IMAD", "int.addr"},   {"IMAD32I", "int.addr"}, {"IADD3", "int.addr"},
      {"IADD", "int.addr"},   {"IADD32I", "int.addr"}, {"LEA", "int.addr"},
      {"ISCADD", "int.addr"}, {"IMUL", "int.addr"},    {"XMAD", "int.addr"},
      {"UIMAD", "int.addr"},  {"UIADD3", "int.addr"},  {"ULEA", "int.addr"},
      {"SHL", "int.addr"},    {"ISETP", "setp"},       {"FSETP", "setp"},
      {"DSETP", "setp"},      {"UISETP", "setp"},      {"BRA", "bra"},
      {"BRX", "bra"},         {"JMP", "bra"},          {"CALL", "call"},
      {"BAR", "bar"},         {"MOV", "mov"},          {"UMOV", "mov"},
      {"MOV32I", "mov"},
  }};
  for (const auto& [name, cls] : kExact)
    if (base == name) return std::string(cls);
  if (starts_with(opcode, "SHF.L") || starts_with(opcode, "USHF.L")) return "int.addr";
  if (base == "S2R" || base == "S2UR" || base == "CS2R") return "mov";
  if (base == "F2F" || base == "F2I" || base == "I2F" || base == "I2I" || base == "F2FP" ||
      base == "I2FP" || base == "FRND")
    return "cvt";
  return "other";
}

std::string sass_source_label(std::string_view text) {
  std::string_view first = text.substr(0, text.find('\n'));
  while (!first.empty() && (first.back() == '\r' || first.back() == ' ')) first.remove_suffix(1);
  if (!starts_with(first, "// SASS")) return "";
  return std::string(first.substr(3));
}

SassStats parse_sass(std::string_view text) {
  SassStats stats;
  stats.source = sass_source_label(text);
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
    const std::string_view trimmed = trim_left(line);
    if (starts_with(trimmed, "Function : ")) {
      std::string_view name = trimmed.substr(11);
      while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.remove_suffix(1);
      stats.functions.push_back({std::string(name), {}});
      continue;
    }
    const std::string_view opcode = instruction_opcode(line);
    if (opcode.empty() || opcode == "NOP") continue;
    if (stats.functions.empty()) stats.functions.push_back({"", {}});
    const std::string cls = sass_class(opcode);
    stats.functions.back().counts.add(std::string(opcode), cls);
    stats.total.add(std::string(opcode), cls);
  }
  return stats;
}

nlohmann::json to_json(const SassStats& s) {
  nlohmann::json functions = nlohmann::json::array();
  for (const auto& f : s.functions) {
    nlohmann::json j = to_json(f.counts);
    j["name"] = f.name;
    functions.push_back(std::move(j));
  }
  nlohmann::json j = to_json(s.total);
  if (!s.source.empty()) j["source"] = s.source;
  j["functions"] = std::move(functions);
  return j;
}

}  // namespace gpucmp::ptx

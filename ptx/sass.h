// Instruction counts from SASS text (cuobjdump -sass / nvdisasm output), with
// the same class names as PTX stats where the mapping is obvious.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opcode_counts.h"

namespace gpucmp::ptx {

struct SassFunction {
  std::string name;  // from "Function : name"; "" before any such line
  OpcodeCounts counts;
};

struct SassStats {
  std::string source;  // the first line's label without "// " ("SASS: driver JIT ..."); "" if none
  OpcodeCounts total;
  std::vector<SassFunction> functions;
};

// The class of a SASS opcode ("FFMA" -> fma.f32, "LDG.E.128" -> ld.global,
// "LDS" -> ld.shared, "LDC"/"ULDC" -> ld.const, "MUFU.RSQ" -> sfu, "IMAD.WIDE"
// -> int.addr, "IMAD.MOV.U32" -> mov, "ISETP.GE.AND" -> setp, ...; "other"
// when unsure).
std::string sass_class(std::string_view opcode);

// Where a SASS text came from: its first line when that reads "// SASS: ..."
// (gpucmp-ptx dump and ptx-dump write one), without the "// "; else "".
std::string sass_source_label(std::string_view text);

// Counts instruction lines like `/*0040*/  @!P0 FFMA R4, R2, R3, R4 ;`; other
// lines (headers, encodings, labels, the source label) are skipped, and so are
// NOPs. Never throws on malformed text.
SassStats parse_sass(std::string_view text);

// {"source": label (when there is one), <OpcodeCounts>, "functions": [...]}
nlohmann::json to_json(const SassStats& s);

}  // namespace gpucmp::ptx

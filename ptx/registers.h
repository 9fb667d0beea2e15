// Register names: special registers (%tid.x, %envreg3) versus declared ones, and
// the prefix/number split that register renaming works on (%rd12 -> %rd, 12).
#pragma once
#include <string>
#include <string_view>

namespace gpucmp::ptx {

// True for PTX's predefined read-only registers: %tid, %ntid, %ctaid, %nctaid,
// %laneid, %warpid, %smid, %gridid, %clock*, %lanemask_*, %envregN, %pmN,
// %globaltimer*, %cluster*, %*smem_size ... (with or without a .x/.y/.z part).
bool is_special_register(std::string_view name);

struct RegisterName {
  std::string prefix;  // "%rd"
  std::string number;  // "12" (empty when the name does not end in digits)
  std::string suffix;  // ".x" for a vector element, else ""
};
RegisterName split_register(std::string_view name);

}  // namespace gpucmp::ptx

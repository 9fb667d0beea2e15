// What a GPUCMP_PROGRAMS block (programs.h) builds its ProgramSpecs from: the
// source program of a variant, the PTX-loaded variants derived from it (the
// controls, the study's -O0 chains, nvcc's PTX) and the build options more
// than one workload passes. Options of one workload stay in its own file.
#pragma once
#include <string>
#include <vector>

#include "programs.h"

namespace gpucmp::opencl {

inline constexpr const char* kFast = "-cl-fast-relaxed-math";
inline constexpr const char* kIeee = "-cl-fp32-correctly-rounded-divide-sqrt";
// Fast math with denormals flushed, as CUDA's --use_fast_math (-ftz=true).
inline constexpr const char* kFastFtz = "-cl-fast-relaxed-math -cl-denorms-are-zero";

// A program built from source: `file` (an embedded .cl) with `options`.
ProgramSpec source(const std::string& workload, const std::string& variant, const std::string& file,
                   const std::string& options);

// `spec` with `options` added on NVIDIA's driver only (ProgramSpec::nvidia_options).
ProgramSpec with_nvidia(ProgramSpec spec, const std::string& options);

// `base` loaded another way (`from`), named <base variant>-<suffix>.
ProgramSpec derived(const ProgramSpec& base, const std::string& suffix, ProgramFrom from);

// The controls of a chain's base: ptx-as-built, ptx-O0 (step 0, where both
// chains start) and ptx-align (the source build's own PTX after the align
// pass alone, which prices it apart from everything the chain does before it).
void add_ptx_controls(std::vector<ProgramSpec>& specs, const ProgramSpec& base);

// The study's chain, cumulative, applied by gpucmp's passes to the -O0 PTX:
// cleanup first (calls inlined, stack slots to registers: the 2010-like
// baseline), then unroll, cse, mad, licm, and a fifth step the 2010 study did
// not need: align (.shared tiles aligned to 16 bytes, for LDS.128).
void add_auto_chain(std::vector<ProgramSpec>& specs, const ProgramSpec& base);

// The same chain edited by hand, files ptx/variants/<workload>/<base>-<step>.ptx.
void add_hand_chain(std::vector<ProgramSpec>& specs, const ProgramSpec& base);

// nvcc's PTX of the CUDA kernel (`ptx`, the entry containing `entry`) loaded
// as OpenCL's `kernel`: <base>-ptx-from-nvcc.
ProgramSpec from_nvcc(const ProgramSpec& base, const std::string& ptx, const std::string& entry,
                      const std::string& kernel);

}  // namespace gpucmp::opencl

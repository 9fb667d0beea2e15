// The AGPU model's machine parameters (Nakano et al.) as each API
// reports them, for the result JSON's context, where scripts/agpu_model.py
// reads them:
//   <api>.agpu.p        cores: compute units x FP32 lanes per unit
//   <api>.agpu.units    compute units (the grids of cascading and pipeline)
//   <api>.agpu.b        a warp's threads (the model's block and bank width)
//   <api>.agpu.M_words  shared memory of one unit, in 32-bit words
//   <api>.agpu.source   how each was obtained
// A parameter the device does not report is left out, never guessed.
#pragma once
#include "api.h"
#include "device_info.h"

namespace gpucmp {

void add_agpu_parameters(ContextList& ctx, const DeviceInfo& info);

}  // namespace gpucmp

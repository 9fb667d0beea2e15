// pass_unroll(): unroll counted loops (passes.h).
#include "passes.h"

namespace gpucmp::ptx {

PassReport pass_unroll(Function&, int) { return {"unroll", 0, {"not implemented yet"}}; }

}  // namespace gpucmp::ptx

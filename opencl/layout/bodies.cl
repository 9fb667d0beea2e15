// bodies (harness/workloads/layout/bodies.h), written once against the
// generated body12 accessors and built once per layout (-D GPUCMP_LAYOUT,
// GPUCMP_TILE: bodies_runner.cpp). Pairs with cuda/layout/bodies.cu.
#include "gpucmp_layouts.h"

__kernel void bodies(__global float* r2, __global const float* b, ulong n) {
  const size_t i = (size_t)get_group_id(0) * get_local_size(0) + get_local_id(0);
  const float x = body12_pos(b, n, i, 0), y = body12_pos(b, n, i, 1), z = body12_pos(b, n, i, 2);
  r2[i] = x * x + y * y + z * z;
}

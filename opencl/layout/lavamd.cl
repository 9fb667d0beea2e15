// LavaMD (harness/workloads/layout/lavamd.h), written once against the
// generated particle4 accessors and built once per layout: GPUCMP_LAYOUT and
// GPUCMP_TILE come as -D options (lavamd_runner.cpp). Pairs with
// cuda/layout/lavamd.cu, line for line. LOCAL_ALIGN (-D, default 4: a
// float's) aligns the __local arrays: the variant "aligned" gives 16 bytes,
// the alignment NVIDIA's OpenCL JIT needs before it reads them with LDS.128.
#include "gpucmp_layouts.h"

#ifndef LOCAL_ALIGN
#define LOCAL_ALIGN 4
#endif
#define LOCAL_ARRAY __attribute__((aligned(LOCAL_ALIGN)))

#define PAR 100        // lavamd::kParPerBox
#define NEIGHBOURS 27  // lavamd::kNeighbours

__kernel void lavamd(__global float* fv, __global const float* rv, __global const float* qv,
                     __global const int* neighbours, __global const int* counts, ulong n,
                     float a2) {
  __local LOCAL_ARRAY float ra_v[PAR], ra_x[PAR], ra_y[PAR], ra_z[PAR];
  __local LOCAL_ARRAY float rb_v[PAR], rb_x[PAR], rb_y[PAR], rb_z[PAR], qb[PAR];
  const int bx = get_group_id(0), tx = get_local_id(0);
  const size_t home = (size_t)bx * PAR;
  for (int i = tx; i < PAR; i += get_local_size(0)) {
    ra_v[i] = particle4_v(rv, n, home + i);
    ra_x[i] = particle4_x(rv, n, home + i);
    ra_y[i] = particle4_y(rv, n, home + i);
    ra_z[i] = particle4_z(rv, n, home + i);
  }
  float f_v = 0, f_x = 0, f_y = 0, f_z = 0;
  const int count = counts[bx];
  for (int k = 0; k < count; ++k) {
    const size_t first = (size_t)neighbours[bx * NEIGHBOURS + k] * PAR;
    barrier(CLK_LOCAL_MEM_FENCE);  // the previous box's particles are no longer read
    for (int j = tx; j < PAR; j += get_local_size(0)) {
      rb_v[j] = particle4_v(rv, n, first + j);
      rb_x[j] = particle4_x(rv, n, first + j);
      rb_y[j] = particle4_y(rv, n, first + j);
      rb_z[j] = particle4_z(rv, n, first + j);
      qb[j] = qv[first + j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tx < PAR) {
      for (int j = 0; j < PAR; ++j) {
        const float r2 =
            ra_v[tx] + rb_v[j] - (ra_x[tx] * rb_x[j] + ra_y[tx] * rb_y[j] + ra_z[tx] * rb_z[j]);
        const float u2 = a2 * r2;
        const float vij = exp(-u2);
        const float fs = 2.0f * vij;
        const float dx = ra_x[tx] - rb_x[j], dy = ra_y[tx] - rb_y[j], dz = ra_z[tx] - rb_z[j];
        f_v += qb[j] * vij;
        f_x += qb[j] * (fs * dx);
        f_y += qb[j] * (fs * dy);
        f_z += qb[j] * (fs * dz);
      }
    }
  }
  if (tx < PAR) {
    particle4_v(fv, n, home + tx) = f_v;
    particle4_x(fv, n, home + tx) = f_x;
    particle4_y(fv, n, home + tx) = f_y;
    particle4_z(fv, n, home + tx) = f_z;
  }
}

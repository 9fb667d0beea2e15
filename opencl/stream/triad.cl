// STREAM triad, one element per work-item (harness/workloads/stream/triad.h).
// Pairs with cuda/stream/triad.cu, line for line.
__kernel void triad(__global float* a, __global const float* b, __global const float* c,
                    float s) {
  const int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  a[i] = b[i] + s * c[i];
}

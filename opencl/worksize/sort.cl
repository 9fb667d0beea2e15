// One pass of the bitonic sorting network, one compare-exchange per
// work-item, global memory only (harness/workloads/worksize/sort.h). The
// NDRange covers the n/2 pairs exactly: the work-group size divides n/2, so no
// bounds test. Both elements are written whether swapped or not, so every
// pass moves 8n bytes. Pairs with cuda/worksize/sort.cu, line for line.
__kernel void bitonic_pass(__global float* a, uint k, uint j) {
  const uint t = get_group_id(0) * get_local_size(0) + get_local_id(0);
  const uint i = 2 * t - (t & (j - 1));  // t with a 0 bit inserted at j's position
  const uint l = i + j;
  const float x = a[i], y = a[l];
  const bool up = (i & k) == 0;
  const bool swap = up ? x > y : x < y;
  a[i] = swap ? y : x;
  a[l] = swap ? x : y;
}

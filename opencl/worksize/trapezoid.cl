// Trapezoid-rule integration of 4 / (1 + x^2) over [0, 1], STEPS steps per
// work-item, the group's partial sums added in local memory by a tree that is
// correct for any group size (beyond the array's 1024 folded in first), local
// id 0 writing the group's total to partials[the group's first global id]
// (harness/workloads/worksize/trapezoid.h). The NDRange covers the items, or
// a split row's block of them from first_item, exactly: the group size
// divides them, so no bounds test.
// Pairs with cuda/worksize/trapezoid.cu, line for line.
#define STEPS 64       // trapezoid::kSteps
#define MAX_LOCAL 1024  // trapezoid::kMaxLocal

float integrand(float x) { return 4.0f / (1.0f + x * x); }

__kernel void trapezoid_sum(__global float* partials, float h, uint first_item) {
  __local float sums[MAX_LOCAL];
  const uint lid = get_local_id(0);
  const uint size = get_local_size(0);
  const uint g = first_item + get_group_id(0) * get_local_size(0) + get_local_id(0);
  const uint first = g * STEPS;
  float sum = 0.5f * (integrand((float)first * h) + integrand((float)(first + STEPS) * h));
  for (uint s = 1; s < STEPS; ++s) sum += integrand((float)(first + s) * h);
  const float mine = sum * h;
  if (lid < MAX_LOCAL) sums[lid] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  // A group over MAX_LOCAL (only where the device allows one: PoCL's NULL
  // local size is 4096) folds its work-items beyond MAX_LOCAL in.
  for (uint base = MAX_LOCAL; base < size; base += MAX_LOCAL) {
    if (lid >= base && lid < base + MAX_LOCAL) sums[lid - base] += mine;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const uint live = min(size, (uint)MAX_LOCAL);
  uint stride = 1;
  while (2 * stride < live) stride *= 2;  // the least power of two >= live / 2
  for (; stride > 0; stride >>= 1) {
    if (lid < stride && lid + stride < live) sums[lid] += sums[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partials[first_item + get_group_id(0) * get_local_size(0)] = sums[0];
}

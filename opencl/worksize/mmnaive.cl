// The naive matrix product, one output element per work-item, no tiling and
// no local memory (harness/workloads/worksize/mmnaive.h). The NDRange is
// (n, n) and the work-group shape divides it, so no bounds test.
// Pairs with cuda/worksize/mmnaive.cu, line for line.
__kernel void mmnaive(__global float* c, __global const float* a, __global const float* b,
                      int n) {
  const int j = get_group_id(0) * get_local_size(0) + get_local_id(0);
  const int i = get_group_id(1) * get_local_size(1) + get_local_id(1);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
  c[i * n + j] = sum;
}

// The naive matrix product, one output element per work-item, no tiling and
// no local memory (harness/workloads/worksize/mmnaive.h). The NDRange is
// (n, n), or a split row's block of it from (x0, y0), and the work-group shape
// divides it, so no bounds test.
// Pairs with cuda/worksize/mmnaive.cu, line for line.
__kernel void mmnaive(__global float* c, __global const float* a, __global const float* b,
                      int n, int x0, int y0) {
  const int j = x0 + get_group_id(0) * get_local_size(0) + get_local_id(0);
  const int i = y0 + get_group_id(1) * get_local_size(1) + get_local_id(1);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
  c[i * n + j] = sum;
}

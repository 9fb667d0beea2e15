// Bilinear image scaling, one output pixel per work-item, no local memory
// (harness/workloads/worksize/bilinear.h). scale_x, scale_y are in / out,
// computed on the host so that both APIs get the same float (OpenCL's divide
// may be 2.5 ulp off). The NDRange is the output, or a split row's block of
// it from (x_first, y_first), exactly: no bounds test.
// Pairs with cuda/worksize/bilinear.cu, line for line.
__kernel void bilinear(__global float* out, __global const float* in, int in_w, int in_h,
                       int out_w, float scale_x, float scale_y, int x_first, int y_first) {
  const int x = x_first + get_group_id(0) * get_local_size(0) + get_local_id(0);
  const int y = y_first + get_group_id(1) * get_local_size(1) + get_local_id(1);
  const float sx = fmin(fmax((x + 0.5f) * scale_x - 0.5f, 0.0f), (float)(in_w - 1));
  const float sy = fmin(fmax((y + 0.5f) * scale_y - 0.5f, 0.0f), (float)(in_h - 1));
  const int x0 = (int)floor(sx);
  const int y0 = (int)floor(sy);
  const int x1 = min(x0 + 1, in_w - 1);
  const int y1 = min(y0 + 1, in_h - 1);
  const float fx = sx - x0;
  const float fy = sy - y0;
  const float top = (1.0f - fx) * in[y0 * in_w + x0] + fx * in[y0 * in_w + x1];
  const float bottom = (1.0f - fx) * in[y1 * in_w + x0] + fx * in[y1 * in_w + x1];
  out[y * out_w + x] = (1.0f - fy) * top + fy * bottom;
}

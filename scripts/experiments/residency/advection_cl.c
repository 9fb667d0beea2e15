// advection's async kernel (opencl/advection/advection_async.cl, built with
// -DRESIDENCY_PROBE) run once a build on an 8192 x 16384 grid through
// NVIDIA's OpenCL, counting the work-groups resident at once (as
// residency.cl does) and timing the launch by its profiling event.
// usage: advection_cl [extra build options, e.g. -DNV_CP_ASYNC or -DRING_LOADS]
// Run from this folder (it reads ../../../opencl/advection/); $RESIDENCY_PLATFORM as residency_cl.
#include "probe_cl.h"

int main(int argc, char** argv) {
  const char* dir = "../../../opencl/advection";
  char path[512];
  snprintf(path, sizeof path, "%s/advection_async.cl", dir);
  static char src[1 << 17];
  const size_t len = read_source(path, src, sizeof src);
  const struct probe_device pd = open_device();
  cl_device_id d = pd.device;
  const cl_uint units = pd.units;
  cl_context c = pd.context;
  cl_command_queue q = pd.queue;
  cl_int err = 0;
  char opts[512];
  snprintf(opts, sizeof opts, "-cl-std=CL1.2 -I %s -DRESIDENCY_PROBE %s", dir,
           argc > 1 ? argv[1] : "");
  const char* s = src;
  cl_program prog = clCreateProgramWithSource(c, 1, &s, &len, &err);
  err = clBuildProgram(prog, 1, &d, opts, 0, 0);
  if (err) {
    static char log[1 << 16];
    clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, 0);
    fprintf(stderr, "%s\n", log);
    die("clBuildProgram", err);
  }
  cl_kernel k = clCreateKernel(prog, "advection_async", &err);
  if (err) die("clCreateKernel", err);
  int nx = 8192, ny = 16384;  // $RESIDENCY_GRID=NXxNY for another (multiples of 256 and 16)
  if (getenv("RESIDENCY_GRID") && sscanf(getenv("RESIDENCY_GRID"), "%dx%d", &nx, &ny) != 2)
    die("reading RESIDENCY_GRID (NXxNY)", 0);
  const float xc = (nx - 1) / 2.0f, yc = (ny - 1) / 2.0f, omega = 0.5f / yc;
  const size_t bytes = (size_t)nx * ny * 4;
  float* field = malloc(bytes);
  for (size_t i = 0; i < (size_t)nx * ny; ++i) field[i] = (float)(i % 97) * 0.01f;
  cl_mem from = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, bytes, field, &err);
  cl_mem to = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes, 0, &err);
  cl_mem live = clCreateBuffer(c, CL_MEM_READ_WRITE, 4, 0, &err);
  cl_mem peak = clCreateBuffer(c, CL_MEM_READ_WRITE, 4, 0, &err);
  if (err) die("clCreateBuffer", err);
  const int zero = 0;
  cl_int row0 = 0, y_first = 0, cnx = nx, cny = ny;
  clSetKernelArg(k, 0, sizeof from, &from);
  clSetKernelArg(k, 1, sizeof to, &to);
  clSetKernelArg(k, 2, sizeof row0, &row0);
  clSetKernelArg(k, 3, sizeof y_first, &y_first);
  clSetKernelArg(k, 4, sizeof cnx, &cnx);
  clSetKernelArg(k, 5, sizeof cny, &cny);
  clSetKernelArg(k, 6, sizeof xc, &xc);
  clSetKernelArg(k, 7, sizeof yc, &yc);
  clSetKernelArg(k, 8, sizeof omega, &omega);
  clSetKernelArg(k, 9, sizeof live, &live);
  clSetKernelArg(k, 10, sizeof peak, &peak);
  const size_t local[2] = {64, 1}, global[2] = {(size_t)(nx / 256) * 64, (size_t)(ny / 16)};
  for (int rep = 0; rep < 4; ++rep) {
    clEnqueueWriteBuffer(q, live, CL_TRUE, 0, 4, &zero, 0, 0, 0);
    clEnqueueWriteBuffer(q, peak, CL_TRUE, 0, 4, &zero, 0, 0, 0);
    cl_event e;
    err = clEnqueueNDRangeKernel(q, k, 2, 0, global, local, 0, 0, &e);
    if (err) die("clEnqueueNDRangeKernel", err);
    clFinish(q);
    cl_ulong t0 = 0, t1 = 0;
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, 0);
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, 0);
    int got = 0, left = -1;
    clEnqueueReadBuffer(q, peak, CL_TRUE, 0, 4, &got, 0, 0, 0);
    clEnqueueReadBuffer(q, live, CL_TRUE, 0, 4, &left, 0, 0, 0);
    if (left != 0) die("the live count returning to 0", left);
    printf(
        "opencl advection_async %-14s: %.1f us, peak %d groups resident, %.2f per compute unit\n",
        argc > 1 ? argv[1] : "(async)", (t1 - t0) / 1e3, got, (double)got / units);
    clReleaseEvent(e);
  }
  return 0;
}

// Host of residency.cl: for each __local size given (bytes), the largest
// number of work-groups resident at once over the device, and per compute
// unit. usage: residency_cl SPINS BYTES... (the first platform whose name
// holds $RESIDENCY_PLATFORM, default NVIDIA).
#include "probe_cl.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: residency_cl SPINS BYTES...\n");
    return 2;
  }
  const int spins = atoi(argv[1]);
  static char src[1 << 16];
  const size_t len = read_source("residency.cl", src, sizeof src);
  const struct probe_device pd = open_device();
  cl_device_id d = pd.device;
  const cl_uint units = pd.units;
  cl_context c = pd.context;
  cl_command_queue q = pd.queue;
  cl_int err = 0;
  const size_t groups = (size_t)units * 32, items = groups * 64;
  cl_mem live = clCreateBuffer(c, CL_MEM_READ_WRITE, 4, 0, &err);
  cl_mem peak = clCreateBuffer(c, CL_MEM_READ_WRITE, 4, 0, &err);
  cl_mem sink = clCreateBuffer(c, CL_MEM_READ_WRITE, items * 4, 0, &err);
  if (err) die("clCreateBuffer", err);
  printf("device compute units %u, %zu groups of 64, %d spins\n", units, groups, spins);
  for (int a = 2; a < argc; ++a) {
    const int pad = atoi(argv[a]);
    char opts[64];
    snprintf(opts, sizeof opts, "-DPAD=%d", pad);
    const char* s = src;
    cl_program prog = clCreateProgramWithSource(c, 1, &s, &len, &err);
    err = clBuildProgram(prog, 1, &d, opts, 0, 0);
    if (err) die("clBuildProgram", err);
    cl_kernel k = clCreateKernel(prog, "residency", &err);
    if (err) die("clCreateKernel", err);
    cl_ulong local = 0;
    clGetKernelWorkGroupInfo(k, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, 0);
    int zero = 0, best = 0;
    for (int rep = 0; rep < 3; ++rep) {
      clEnqueueWriteBuffer(q, live, CL_TRUE, 0, 4, &zero, 0, 0, 0);
      clEnqueueWriteBuffer(q, peak, CL_TRUE, 0, 4, &zero, 0, 0, 0);
      clSetKernelArg(k, 0, sizeof live, &live);
      clSetKernelArg(k, 1, sizeof peak, &peak);
      clSetKernelArg(k, 2, sizeof sink, &sink);
      clSetKernelArg(k, 3, sizeof spins, &spins);
      const size_t local_size = 64;
      err = clEnqueueNDRangeKernel(q, k, 1, 0, &items, &local_size, 0, 0, 0);
      if (err) die("clEnqueueNDRangeKernel", err);
      int got = 0, left = -1;
      clEnqueueReadBuffer(q, peak, CL_TRUE, 0, 4, &got, 0, 0, 0);
      clEnqueueReadBuffer(q, live, CL_TRUE, 0, 4, &left, 0, 0, 0);
      if (left != 0) die("the live count returning to 0", left);
      if (got > best) best = got;
    }
    printf(
        "opencl local %6d B (kernel reports %6llu B): peak %5d groups resident, %.2f per compute "
        "unit\n",
        pad, (unsigned long long)local, best, (double)best / units);
    clReleaseKernel(k);
    clReleaseProgram(prog);
  }
  return 0;
}

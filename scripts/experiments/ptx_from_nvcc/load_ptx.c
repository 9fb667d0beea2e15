// Experiment: load a PTX file through OpenCL, run matrixMul (tile 16) on n=256, check.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long len = ftell(f); rewind(f);
  char* ptx = calloc(len + 1, 1); fread(ptx, 1, len, f); fclose(f);
  cl_platform_id ps[4]; cl_uint np; clGetPlatformIDs(4, ps, &np);
  cl_platform_id p = 0; for (cl_uint i = 0; i < np; ++i) { char n[128]; clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 128, n, 0); if (strstr(n, "NVIDIA")) p = ps[i]; }
  cl_device_id d; clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, 0);
  cl_int err; cl_context c = clCreateContext(0, 1, &d, 0, 0, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(c, d, 0, &err);
  size_t sz = len + 1; const unsigned char* b = (const unsigned char*)ptx; cl_int st;
  cl_program prog = clCreateProgramWithBinary(c, 1, &d, &sz, &b, &st, &err);
  printf("%s: createWithBinary err=%d status=%d\n", argv[1], err, st);
  err = clBuildProgram(prog, 1, &d, "", 0, 0);
  char log[8192] = {0}; clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, 0);
  printf("build err=%d log=%.300s\n", err, log);
  if (err) return 1;
  cl_kernel k = clCreateKernel(prog, argv[2], &err); printf("createKernel(%s) err=%d\n", argv[2], err); if (err) return 1;
  int n = 256; size_t bytes = n * n * 4; float *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes);
  for (int i = 0; i < n * n; ++i) { A[i] = (i % 7) * 0.25f - 0.5f; B[i] = (i % 5) * 0.5f - 1.0f; C[i] = NAN; }
  cl_mem a = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, bytes, A, &err), bb = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, bytes, B, &err), cc = clCreateBuffer(c, 0, bytes, 0, &err);
  clSetKernelArg(k, 0, sizeof cc, &cc); clSetKernelArg(k, 1, sizeof a, &a); clSetKernelArg(k, 2, sizeof bb, &bb); clSetKernelArg(k, 3, sizeof n, &n);
  size_t g[2] = {n, n}, l[2] = {16, 16};
  err = clEnqueueNDRangeKernel(q, k, 2, 0, g, l, 0, 0, 0); printf("enqueue err=%d\n", err);
  err = clFinish(q); printf("finish err=%d\n", err);
  err = clEnqueueReadBuffer(q, cc, CL_TRUE, 0, bytes, C, 0, 0, 0); printf("read err=%d\n", err);
  double maxerr = 0; for (int i = 0; i < n; i += 17) for (int j = 0; j < n; j += 13) { double s = 0; for (int kk = 0; kk < n; ++kk) s += (double)A[i*n+kk] * B[kk*n+j]; double e = fabs(s - C[i*n+j]); if (!(e <= maxerr)) maxerr = e; }
  printf("RESULT %s max abs err %g\n", argv[1], maxerr);
  return 0;
}

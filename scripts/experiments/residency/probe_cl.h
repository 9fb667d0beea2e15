// What both OpenCL probes of this folder share: the error exit, reading a
// kernel file, and the device of the first platform whose name holds
// $RESIDENCY_PLATFORM (default NVIDIA) with its context and a profiling queue.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char* what, cl_int err) {
  fprintf(stderr, "residency probe: %s failed (%d)\n", what, err);
  exit(1);
}

// The file's text into buf (NUL-terminated); its length.
static size_t read_source(const char* path, char* buf, size_t size) {
  FILE* f = fopen(path, "rb");
  if (!f) die(path, 0);
  const size_t len = fread(buf, 1, size - 1, f);
  fclose(f);
  buf[len] = 0;
  return len;
}

struct probe_device {
  cl_device_id device;
  cl_uint units;
  cl_context context;
  cl_command_queue queue;
};

static struct probe_device open_device(void) {
  const char* want = getenv("RESIDENCY_PLATFORM") ? getenv("RESIDENCY_PLATFORM") : "NVIDIA";
  cl_platform_id ps[8], p = 0;
  cl_uint np = 0;
  clGetPlatformIDs(8, ps, &np);
  for (cl_uint i = 0; i < np; ++i) {
    char n[256];
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof n, n, 0);
    if (!p && strstr(n, want)) p = ps[i];
  }
  if (!p) die("finding the OpenCL platform", 0);
  struct probe_device d;
  cl_int err = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d.device, 0);
  if (err) die("clGetDeviceIDs", err);
  clGetDeviceInfo(d.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof d.units, &d.units, 0);
  d.context = clCreateContext(0, 1, &d.device, 0, 0, &err);
  if (err) die("clCreateContext", err);
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  d.queue = clCreateCommandQueueWithProperties(d.context, d.device, props, &err);
  if (err) die("clCreateCommandQueue", err);
  return d;
}

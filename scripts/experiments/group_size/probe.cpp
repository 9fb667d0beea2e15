// Which work-group sizes an OpenCL driver launches, against what it reports.
// For kernels of rising register need (KEEP floats kept live across a loop),
// prints CL_KERNEL_WORK_GROUP_SIZE, the registers the driver's compiler used
// (NVIDIA: the -cl-nv-verbose build log) and, over every local size from 32 to
// CL_DEVICE_MAX_WORK_GROUP_SIZE in steps of 32, the largest that launched with
// every work-item's output right, the sizes clEnqueueNDRangeKernel refused
// (with its error) and any that ran but came out wrong. Exit 1 when a size at
// or under CL_KERNEL_WORK_GROUP_SIZE failed.
// build: c++ -std=c++17 -O2 probe.cpp -lOpenCL -o probe; run: ./probe
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cmath>
#include <cstdio>
#include <regex>
#include <string>
#include <vector>

namespace {

const char* kSource = R"(
__kernel void keep(__global const float* in, __global float* out, int steps) {
  const int i = get_global_id(0);
  float v[KEEP];
  for (int k = 0; k < KEEP; ++k) v[k] = in[i] + (float)k;
  for (int s = 0; s < steps; ++s) {
#pragma unroll
    for (int k = 0; k < KEEP; ++k) v[k] = v[k] * 0.5f + v[(k + 1) % KEEP] * 0.25f;
  }
  float sum = 0.0f;
  for (int k = 0; k < KEEP; ++k) sum += v[k];
  out[i] = sum;
}
)";

float reference(float x, int keep, int steps) {
  std::vector<float> v(keep);
  for (int k = 0; k < keep; ++k) v[k] = x + float(k);
  for (int s = 0; s < steps; ++s)
    for (int k = 0; k < keep; ++k) v[k] = v[k] * 0.5f + v[(k + 1) % keep] * 0.25f;
  float sum = 0;
  for (int k = 0; k < keep; ++k) sum += v[k];
  return sum;
}

struct Released {  // releases what it was given, in reverse order
  std::vector<cl_mem> mems;
  std::vector<cl_kernel> kernels;
  std::vector<cl_program> programs;
  ~Released() {
    for (cl_kernel k : kernels) clReleaseKernel(k);
    for (cl_program p : programs) clReleaseProgram(p);
    for (cl_mem m : mems) clReleaseMemObject(m);
  }
};

}  // namespace

int main() {
  cl_platform_id platforms[8];
  cl_uint nplat = 0;
  if (clGetPlatformIDs(8, platforms, &nplat) != CL_SUCCESS || nplat == 0) {
    std::fprintf(stderr, "probe: error: no OpenCL platform\n");
    return 2;
  }
  cl_device_id dev = nullptr;
  for (cl_uint p = 0; p < nplat && !dev; ++p)
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) != CL_SUCCESS)
      dev = nullptr;
  if (!dev && clGetDeviceIDs(platforms[0], CL_DEVICE_TYPE_ALL, 1, &dev, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "probe: error: no OpenCL device\n");
    return 2;
  }
  char name[256] = {0}, version[256] = {0}, vendor[256] = {0};
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
  clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof version, version, nullptr);
  clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof vendor, vendor, nullptr);
  std::size_t dev_max = 0;
  clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dev_max, &dev_max, nullptr);
  const bool nvidia = std::string(vendor).find("NVIDIA") != std::string::npos;
  std::printf("device: %s (%s), driver %s, CL_DEVICE_MAX_WORK_GROUP_SIZE %zu\n\n", name, vendor,
              version, dev_max);
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  const int steps = 4;
  const std::size_t groups = 264;  // two a compute unit on a 132-SM GPU
  const std::size_t n = dev_max * groups;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = float(i % 97) * 0.01f;
  int status = 0;
  std::printf(
      "Each local size from 32 to the device's largest in steps of 32, %zu groups a launch.\n\n",
      groups);
  std::printf(
      "| KEEP | registers | CL_KERNEL_WORK_GROUP_SIZE | largest size launched and right |"
      " sizes refused (error at enqueue) | sizes that ran wrong |\n");
  std::printf("|---:|---:|---:|---:|---|---|\n");
  for (int keep : {4, 32, 48, 64, 80, 96, 128}) {
    Released r;
    r.mems.push_back(clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                                    in.data(), &err));
    r.mems.push_back(clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), nullptr, &err));
    cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
    r.programs.push_back(prog);
    std::string options = "-DKEEP=" + std::to_string(keep) + (nvidia ? " -cl-nv-verbose" : "");
    if (clBuildProgram(prog, 1, &dev, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      std::printf("| %d | build failed | | | | |\n", keep);
      status = 1;
      continue;
    }
    std::size_t log_size = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size);
    std::string log(log_size, '\0');
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, log_size, log.data(), nullptr);
    std::smatch m;
    const std::regex used(R"(Used (\d+) registers)");
    const std::string regs = std::regex_search(log, m, used) ? m[1].str() : "?";
    cl_kernel k = clCreateKernel(prog, "keep", &err);
    r.kernels.push_back(k);
    std::size_t kmax = 0;
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, nullptr);
    clSetKernelArg(k, 0, sizeof(cl_mem), &r.mems[0]);
    clSetKernelArg(k, 1, sizeof(cl_mem), &r.mems[1]);
    clSetKernelArg(k, 2, sizeof(int), &steps);
    std::vector<float> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = reference(in[i], keep, steps);
    std::size_t largest = 0;
    std::string refused, wrong;
    for (std::size_t local = 32; local <= dev_max; local += 32) {
      const std::size_t global = local * groups;
      std::vector<float> out(global, -1.0f);
      clEnqueueWriteBuffer(q, r.mems[1], CL_TRUE, 0, global * sizeof(float), out.data(), 0, nullptr,
                           nullptr);
      const cl_int enq =
          clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
      const cl_int fin = clFinish(q);
      const cl_int rd = clEnqueueReadBuffer(q, r.mems[1], CL_TRUE, 0, global * sizeof(float),
                                            out.data(), 0, nullptr, nullptr);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < global; ++i)
        if (!(std::fabs(out[i] - want[i]) <= 1e-4f * std::fabs(want[i]) + 1e-5f)) ++bad;
      const std::string size = std::to_string(local);
      if (enq != CL_SUCCESS) {
        refused += (refused.empty() ? "" : ", ") + size + " (" + std::to_string(enq) + ")";
      } else if (fin != CL_SUCCESS || rd != CL_SUCCESS || bad > 0) {
        wrong += (wrong.empty() ? "" : ", ") + size + " (finish " + std::to_string(fin) + ", " +
                 std::to_string(bad) + " wrong)";
      } else {
        largest = local;
      }
      // A size the driver said it launches must launch and be right.
      if ((enq != CL_SUCCESS || fin != CL_SUCCESS || bad > 0) && local <= kmax) status = 1;
    }
    std::printf("| %d | %s | %zu | %zu | %s | %s |\n", keep, regs.c_str(), kmax, largest,
                refused.empty() ? "none" : refused.c_str(), wrong.empty() ? "none" : wrong.c_str());
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return status;
}

// Device copies of one matrixMul problem: the base of every CUDA matrixMul
// runner (tiled, cuBLAS, the cross-run rows), which differ only in enqueue().
#pragma once
#include "timed_runner.h"
#include "workloads/sdk/matrixmul.h"

namespace gpucmp::cuda {

class MatrixRunner : public TimedRunner {
 public:
  explicit MatrixRunner(matrixmul::Problem& p) : p_(p) {}
  void upload() override;    // allocates A, B, C; copies A and B
  void download() override;  // C into problem.c

 protected:
  float* a() const { return static_cast<float*>(a_.get()); }
  float* b() const { return static_cast<float*>(b_.get()); }
  float* c() const { return static_cast<float*>(c_.get()); }
  int n() const { return p_.n; }

 private:
  matrixmul::Problem& p_;
  DevicePtr a_, b_, c_;
};

}  // namespace gpucmp::cuda

// Device copies of one mriq/mrifhd problem: the base of the CUDA MRI runners
// (mriq.cu/mrifhd.cu's kernels and the cross-run rows), which differ only in
// enqueue(). The k-values are packed as Parboil's structs,
// {Kx, Ky, Kz, PhiMag} (Q) or {Kx, Ky, Kz, RhoPhiR, RhoPhiI} (FHD), the
// per-k factors zero until each launch's first kernel writes them.
#pragma once
#include <cstddef>

#include "timed_runner.h"
#include "workloads/parboil/mri.h"
#include "workloads/parboil/mri_byvalue.h"

namespace gpucmp::cuda {

class MriBuffers : public TimedRunner {
 public:
  explicit MriBuffers(mri::Problem& p) : p_(p) {}
  void upload() override;
  void download() override;  // the two outputs into problem.out_r/out_i

 protected:
  const mri::Problem& problem() const { return p_; }
  std::size_t kv_floats() const { return std::size_t(mri::record_floats(p_.kind)); }
  static float* f(const DevicePtr& p) { return static_cast<float*>(p.get()); }
  void clear_outputs();  // on stream()

  DevicePtr x_, y_, z_, phiR_, phiI_, dR_, dI_, kv_, out_r_, out_i_;

 private:
  mri::Problem& p_;
};

}  // namespace gpucmp::cuda

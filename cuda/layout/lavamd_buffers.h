// Device copies of one lavamd problem in one particle layout: the base of the
// CUDA lavamd runners (lavamd.cu's kernels and the cross-run rows,
// cross_lavamd.cpp), which differ only in enqueue(). The particles are
// converted on the host into the row's layout and uploaded once; the forces
// are downloaded and converted back to AoS.
#pragma once
#include "timed_runner.h"
#include "workloads/layout/lavamd.h"

namespace gpucmp::cuda {

class LavaMdBuffers : public TimedRunner {
 public:
  LavaMdBuffers(lavamd::Problem& p, const lavamd::Variant& v) : p_(p), layout_(v.layout) {}
  void upload() override;
  void download() override;  // the forces into problem.fv, in AoS

 protected:
  const lavamd::Problem& problem() const { return p_; }
  layout::Layout particle_layout() const { return layout_; }
  static float* f(const DevicePtr& p) { return static_cast<float*>(p.get()); }
  static int* i(const DevicePtr& p) { return static_cast<int*>(p.get()); }

  DevicePtr fv_, rv_, qv_, neighbours_, counts_;

 private:
  lavamd::Problem& p_;
  layout::Layout layout_;
};

}  // namespace gpucmp::cuda

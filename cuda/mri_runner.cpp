// CUDA runners of mriq and mrifhd: per launch, compute the per-k factors into
// the packed k-values (device), clear the outputs, then per tile copy the
// k-values into constant memory and launch the voxel kernel (mriq.cu, mrifhd.cu).
#include <algorithm>
#include <vector>

#include "parboil_kernels.h"
#include "runners.h"
#include "timed_runner.h"
#include "workloads/mri.h"

namespace gpucmp::cuda {

namespace {

class MriRunner : public TimedRunner {
 public:
  MriRunner(mri::Problem& p, const mri::Variant& v)
      : p_(p), fast_(v.fast_math), loop_(v.loop) {}

  void upload() override {
    const mri::Dataset& d = p_.data;
    for (auto [dst, src] : {std::pair{&x_, &d.x}, {&y_, &d.y}, {&z_, &d.z}, {&phiR_, &d.phiR},
                            {&phiI_, &d.phiI}, {&dR_, &d.dR}, {&dI_, &d.dI}})
      *dst = to_device(*src);
    out_r_ = device_alloc(std::size_t(d.numX) * sizeof(float), "mri real output");
    out_i_ = device_alloc(std::size_t(d.numX) * sizeof(float), "mri imaginary output");
    if (p_.kind == mri::Kind::q) {
      std::vector<KValuesQ> kv(std::size_t(d.numK));
      for (int k = 0; k < d.numK; ++k) kv[k] = {d.kx[k], d.ky[k], d.kz[k], 0.0f};
      kv_ = to_device(kv);
    } else {
      std::vector<KValuesFH> kv(std::size_t(d.numK));
      for (int k = 0; k < d.numK; ++k) kv[k] = {d.kx[k], d.ky[k], d.kz[k], 0.0f, 0.0f};
      kv_ = to_device(kv);
    }
  }

  void download() override {
    const std::size_t bytes = p_.out_r.size() * sizeof(float);
    copy_and_wait(p_.out_r.data(), out_r_.get(), bytes, cudaMemcpyDeviceToHost, stream(), "real");
    copy_and_wait(p_.out_i.data(), out_i_.get(), bytes, cudaMemcpyDeviceToHost, stream(), "imag");
  }

 protected:
  void enqueue() override {
    const mri::Dataset& d = p_.data;
    const std::size_t out_bytes = std::size_t(d.numX) * sizeof(float);
    if (p_.kind == mri::Kind::q) {
      const MriQKernels& k = mriq_kernels(fast_);
      auto* kv = static_cast<KValuesQ*>(kv_.get());
      k.phi_mag(f(phiR_), f(phiI_), kv, d.numK, stream());
      clear_outputs(out_bytes);
      for (int start = 0; start < d.numK; start += mri::kTileQ) {
        const int count = std::min(mri::kTileQ, d.numK - start);
        check(k.set_k(kv + start, count, stream()), "cudaMemcpyToSymbolAsync", "mriq k tile");
        k.compute_q(loop_, count, d.numX, f(x_), f(y_), f(z_), f(out_r_), f(out_i_),
                    stream());
      }
    } else {
      const MriFhdKernels& k = mrifhd_kernels(fast_);
      auto* kv = static_cast<KValuesFH*>(kv_.get());
      k.rho_phi(f(phiR_), f(phiI_), f(dR_), f(dI_), kv, d.numK, stream());
      clear_outputs(out_bytes);
      for (int start = 0; start < d.numK; start += mri::kTileFH) {
        const int count = std::min(mri::kTileFH, d.numK - start);
        check(k.set_k(kv + start, count, stream()), "cudaMemcpyToSymbolAsync", "mrifhd k tile");
        k.compute_fh(loop_, count, d.numX, f(x_), f(y_), f(z_), f(out_r_), f(out_i_),
                     stream());
      }
    }
  }

 private:
  template <class T>
  DevicePtr to_device(const std::vector<T>& host) {
    if (host.empty()) return {};
    DevicePtr p = device_alloc(host.size() * sizeof(T), "mri input");
    copy_and_wait(p.get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice,
                  stream(), "mri input");
    return p;
  }
  static float* f(const DevicePtr& p) { return static_cast<float*>(p.get()); }
  void clear_outputs(std::size_t bytes) {
    check(cudaMemsetAsync(out_r_.get(), 0, bytes, stream()), "cudaMemsetAsync", "mri real");
    check(cudaMemsetAsync(out_i_.get(), 0, bytes, stream()), "cudaMemsetAsync", "mri imag");
  }

  mri::Problem& p_;
  bool fast_;
  mri::KLoop loop_;
  DevicePtr x_, y_, z_, phiR_, phiI_, dR_, dI_, kv_, out_r_, out_i_;
};

}  // namespace

void register_mri_runners() {
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd})
    mri::add_runner(kind, "cuda", [](mri::Problem& p, const mri::Variant& v) {
      return std::make_unique<MriRunner>(p, v);
    });
}

}  // namespace gpucmp::cuda

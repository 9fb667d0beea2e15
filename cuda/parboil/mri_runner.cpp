// CUDA runners of mriq and mrifhd: per launch, compute the per-k factors into
// the packed k-values (device), clear the outputs, then per tile copy the
// k-values into constant memory and launch the voxel kernel (mriq.cu, mrifhd.cu);
// mriq's -ldg rows launch on the tile where it lies. The by-value form
// (mri::KFrom::byvalue) computes the per-k factors into the records on the host,
// clears the outputs, then passes each chunk of records as the kernel's
// __grid_constant__ argument.
// The device copies (MriBuffers, mri_buffers.h) are shared with the cross-run rows.
#include <vector>

#include "block_limit.h"
#include "mri_buffers.h"
#include "parboil_kernels.h"
#include "runner_table.h"
#include "workloads/parboil/mri_byvalue.h"

namespace gpucmp::cuda {

namespace {

DevicePtr to_device(const std::vector<float>& host, cudaStream_t stream) {
  if (host.empty()) return {};
  DevicePtr p = device_alloc(host.size() * sizeof(float), "mri input");
  copy_and_wait(p.get(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice, stream,
                "mri input");
  return p;
}

}  // namespace

void MriBuffers::upload() {
  const mri::Dataset& d = p_.data;
  for (auto [dst, src] : {std::pair{&x_, &d.x},
                          {&y_, &d.y},
                          {&z_, &d.z},
                          {&phiR_, &d.phiR},
                          {&phiI_, &d.phiI},
                          {&dR_, &d.dR},
                          {&dI_, &d.dI}})
    *dst = to_device(*src, stream());
  kv_ = to_device(mri::unfactored_records(d, p_.kind), stream());
  out_r_ = device_alloc(std::size_t(d.numX) * sizeof(float), "mri real output");
  out_i_ = device_alloc(std::size_t(d.numX) * sizeof(float), "mri imaginary output");
}

void MriBuffers::download() {
  const std::size_t bytes = p_.out_r.size() * sizeof(float);
  copy_and_wait(p_.out_r.data(), out_r_.get(), bytes, cudaMemcpyDeviceToHost, stream(), "real");
  copy_and_wait(p_.out_i.data(), out_i_.get(), bytes, cudaMemcpyDeviceToHost, stream(), "imag");
}

void MriBuffers::clear_outputs() {
  const std::size_t bytes = std::size_t(p_.data.numX) * sizeof(float);
  check(cudaMemsetAsync(out_r_.get(), 0, bytes, stream()), "cudaMemsetAsync", "mri real");
  check(cudaMemsetAsync(out_i_.get(), 0, bytes, stream()), "cudaMemsetAsync", "mri imag");
}

namespace {

// MriBuffers packs the k-values as floats; the kernels read them as these structs.
static_assert(sizeof(KValuesQ) == 4 * sizeof(float) && sizeof(KValuesFH) == 5 * sizeof(float));

// ldg: mriq's -ldg control rows, the voxel kernel reading each tile of
// k-values where it lies in device memory (no copy into constant memory).
class MriRunner : public MriBuffers {
 public:
  MriRunner(mri::Problem& p, const mri::Variant& v, bool ldg)
      : MriBuffers(p),
        fast_(v.fast_math),
        ldg_(ldg),
        byvalue_(v.from == mri::KFrom::byvalue),
        loop_(v.loop),
        block_(v.local.x) {
    if (mri::default_local(v)) return;
    check_block_limit(kernel(p.kind), v.local, 1,
                      std::string(mri::workload_name(p.kind)) + "/" + v.name);
  }

 protected:
  void enqueue() override {
    const mri::Dataset& d = problem().data;
    if (byvalue_) {
      enqueue_byvalue(d);
      return;
    }
    if (problem().kind == mri::Kind::q) {
      const MriQKernels& k = mriq_kernels(fast_);
      auto* kv = static_cast<KValuesQ*>(kv_.get());
      k.phi_mag(f(phiR_), f(phiI_), kv, d.numK, stream());
      clear_outputs();
      byvalue::for_each_chunk(d.numK, mri::kTileQ, [&](int start, int count) {
        if (ldg_) {
          k.compute_q_ldg(loop_, count, d.numX, f(x_), f(y_), f(z_), f(out_r_), f(out_i_),
                          kv + start, block_, stream());
          return;
        }
        check(k.set_k(kv + start, count, stream()), "cudaMemcpyToSymbolAsync", "mriq k tile");
        k.compute_q(loop_, count, d.numX, f(x_), f(y_), f(z_), f(out_r_), f(out_i_), block_,
                    stream());
      });
    } else {
      const MriFhdKernels& k = mrifhd_kernels(fast_);
      auto* kv = static_cast<KValuesFH*>(kv_.get());
      k.rho_phi(f(phiR_), f(phiI_), f(dR_), f(dI_), kv, d.numK, stream());
      clear_outputs();
      byvalue::for_each_chunk(d.numK, mri::kTileFH, [&](int start, int count) {
        check(k.set_k(kv + start, count, stream()), "cudaMemcpyToSymbolAsync", "mrifhd k tile");
        k.compute_fh(loop_, count, d.numX, f(x_), f(y_), f(z_), f(out_r_), f(out_i_), block_,
                     stream());
      });
    }
  }

 private:
  // The voxel kernel of this row, for cudaFuncGetAttributes.
  const void* kernel(mri::Kind kind) const {
    if (kind == mri::Kind::fhd) {
      const MriFhdKernels& k = mrifhd_kernels(fast_);
      return byvalue_ ? k.compute_kernel_byvalue() : k.compute_kernel(loop_);
    }
    const MriQKernels& k = mriq_kernels(fast_);
    if (byvalue_) return k.compute_kernel_byvalue();
    return ldg_ ? k.compute_kernel_ldg(loop_) : k.compute_kernel(loop_);
  }

  // The by-value form: the records filled on the host (the per-k factors:
  // host work of the timed launch), the outputs cleared, then one voxel kernel
  // a chunk of mri::byvalue_k_cuda k-values (the kernels' compiled-in chunk,
  // mriq.cu and mrifhd.cu), the chunk its last argument (mri_byvalue.h).
  void enqueue_byvalue(const mri::Dataset& d) {
    const mri::Kind kind = problem().kind;
    const int per_launch = mri::byvalue_k_cuda(kind);
    mri::fill_byvalue_records(d, kind, per_launch, records_);
    clear_outputs();
    const std::size_t floats = kv_floats();
    byvalue::for_each_chunk(d.numK, per_launch, [&](int start, int count) {
      const float* chunk = records_.data() + floats * std::size_t(start);
      if (kind == mri::Kind::q)
        mriq_kernels(fast_).compute_q_byvalue(count, d.numX, f(x_), f(y_), f(z_), f(out_r_),
                                              f(out_i_), chunk, block_, stream());
      else
        mrifhd_kernels(fast_).compute_fh_byvalue(count, d.numX, f(x_), f(y_), f(z_), f(out_r_),
                                                 f(out_i_), chunk, block_, stream());
    });
  }

  bool fast_, ldg_, byvalue_;
  mri::KLoop loop_;
  int block_;                   // threads per block of the voxel kernel
  std::vector<float> records_;  // byvalue: filled by each launch (mri::fill_byvalue_records)
};

}  // namespace

namespace {
// mriq's own CUDA rows: the main variants with the k-values read through the
// read-only path instead of the constant bank, the load NVIDIA's OpenCL JIT
// makes of the __constant argument.
std::vector<mri::Variant> ldg_variants() {
  return {{"precise-ldg", false, mri::KLoop::tile_and_count},
          {"fast-ldg", true, mri::KLoop::tile_and_count}};
}

GPUCMP_RUNNERS("cuda") {
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd})
    mri::runners(kind).add("cuda", mri::variants(), [](mri::Problem& p, const mri::Variant& v) {
      return std::make_unique<MriRunner>(p, v, false);
    });
  mri::runners(mri::Kind::q)
      .add("cuda", ldg_variants(), [](mri::Problem& p, const mri::Variant& v) {
        return std::make_unique<MriRunner>(p, v, true);
      });
}
}  // namespace

}  // namespace gpucmp::cuda

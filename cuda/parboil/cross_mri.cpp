// Cross-run rows of mriq and mrifhd (cross_runners.h): the two kernels of a
// launch (per-k factors, then the voxel kernel once per constant-memory tile
// of k-values) as OpenCL's compiler made them (`<variant>-opencl-ptx`) and as
// nvcc made them (`precise-ptx-jit`), JIT-compiled by the CUDA driver and
// launched as both APIs' runners do: blocks of mri::kBlock threads (the voxel
// kernel: the row's block, --mriq-local / --mrifhd-local), the grid rounded
// up (OpenCL: global rounded up to the local size). Per tile the
// k-values are copied into the module's constant array: nvcc's __constant__
// `ck`, or for OpenCL's PTX the array its `__constant` parameter now reads
// (ptx/cuda_abi.h). Argument lists are each compiler's own:
//   OpenCL ComputeQ(numK, numX, x, y, z, Qr, Qi, __constant ck)  (FH alike)
//   nvcc   ComputeQ(numK, numX, x, y, z, Qr, Qi)                 (ck a symbol)
//   both   ComputePhiMag(phiR, phiI, kv, numK), ComputeRhoPhi(phiR, phiI, dR, dI, kv, numK)
#include <vector>

#include "block_limit.h"
#include "cross_ptx_text.h"
#include "cross_runners.h"
#include "jit_runner.h"
#include "mri_buffers.h"
#include "ptx/cuda_abi.h"
#include "workloads/parboil/mri.h"
#include "workloads/parboil/mri_byvalue.h"

namespace gpucmp::cuda {

namespace {

struct KernelSet {
  bool opencl_args;     // OpenCL's argument list (the __constant pointer last)
  std::string prepare;  // .entry names in the PTX
  std::string compute;
  std::string constant;  // the constant array the voxel kernel reads
};

struct Shape {
  const char* workload;
  const char* prepare;  // OpenCL's kernel names
  const char* compute;
  int tile;               // k-values per constant tile
  std::size_t kv_floats;  // floats per packed k-value (KValuesQ: 4, KValuesFH: 5)
  // nvcc's kernels and constant symbol (name parts; the voxel kernel's current
  // template form first, then its first form).
  std::vector<std::string> nvcc_prepare, nvcc_compute, nvcc_constant;
};

const Shape& shape(mri::Kind kind) {
  static const Shape q{"mriq",
                       "ComputePhiMag",
                       "ComputeQ",
                       mri::kTileQ,
                       4,
                       {"ComputePhiMag"},
                       {"ComputeQILNS_3mri5KLoopE0EE", "ComputeQEii"},
                       {"2ckE"}};
  static const Shape fhd{"mrifhd",
                         "ComputeRhoPhi",
                         "ComputeFH",
                         mri::kTileFH,
                         5,
                         {"ComputeRhoPhi"},
                         {"ComputeFHILNS_3mri5KLoopE0EE", "ComputeFHEii"},
                         {"2ckE"}};
  return kind == mri::Kind::q ? q : fhd;
}

class JitMri : public JitRunner<MriBuffers> {
 public:
  JitMri(mri::Problem& p, const mri::Variant& v, const std::string& ptx, const KernelSet& k,
         const std::string& what)
      : JitRunner(p, ptx, what),
        s_(shape(p.kind)),
        opencl_args_(k.opencl_args),
        prepare_(library().kernel(k.prepare)),
        compute_(library().kernel(k.compute)),
        constant_(library().global(k.constant, tile_bytes())),
        block_(v.local.x) {
    if (!mri::default_local(v))
      check_block_limit(reinterpret_cast<const void*>(compute_), v.local, 1, what);
  }

 protected:
  void enqueue() override {
    const mri::Dataset& d = problem().data;
    const dim3 block(mri::kBlock);
    const int numK = d.numK, numX = d.numX;
    if (problem().kind == mri::Kind::q)
      launch(prepare_, dim3(blocks(numK)), block, stream(), what(), f(phiR_), f(phiI_), f(kv_),
             numK);
    else
      launch(prepare_, dim3(blocks(numK)), block, stream(), what(), f(phiR_), f(phiI_), f(dR_),
             f(dI_), f(kv_), numK);
    clear_outputs();
    const std::size_t kv_bytes = s_.kv_floats * sizeof(float);
    const dim3 x_block(block_), x_grid((numX + block_ - 1) / block_);
    byvalue::for_each_chunk(numK, s_.tile, [&](int start, int count) {
      check(cudaMemcpyAsync(constant_, f(kv_) + s_.kv_floats * start, kv_bytes * count,
                            cudaMemcpyDeviceToDevice, stream()),
            "cudaMemcpyAsync", what() + " k tile into constant memory");
      if (opencl_args_)  // the __constant pointer: unused once redirected, given the array
        launch(compute_, x_grid, x_block, stream(), what(), count, numX, f(x_), f(y_), f(z_),
               f(out_r_), f(out_i_), static_cast<float*>(constant_));
      else
        launch(compute_, x_grid, x_block, stream(), what(), count, numX, f(x_), f(y_), f(z_),
               f(out_r_), f(out_i_));
    });
  }

 private:
  std::size_t tile_bytes() const { return s_.tile * s_.kv_floats * sizeof(float); }
  static int blocks(int items) { return (items + mri::kBlock - 1) / mri::kBlock; }

  const Shape& s_;
  bool opencl_args_;
  cudaKernel_t prepare_, compute_;
  void* constant_;
  int block_;  // threads per block of the voxel kernel
};

}  // namespace

std::vector<mri::Variant> mri_cross_variants() {
  const mri::KLoop loop = mri::KLoop::tile_and_count;
  return {{"precise-opencl-ptx", false},
          {"fast-opencl-ptx", true},
          {"precise-ptx-jit", false},
          {"precise-byvalue-opencl-ptx", false, loop, mri::KFrom::byvalue},
          {"fast-byvalue-opencl-ptx", true, loop, mri::KFrom::byvalue}};
}

std::unique_ptr<Runner> make_mri_cross_runner(mri::Problem& p, const mri::Variant& v) {
  const Shape& s = shape(p.kind);
  const std::string what = std::string(s.workload) + "/" + v.name;
  const std::string opencl = "-opencl-ptx";
  if (v.name.size() > opencl.size() &&
      v.name.compare(v.name.size() - opencl.size(), opencl.size(), opencl) == 0) {
    const std::string base = v.name.substr(0, v.name.size() - opencl.size());
    const std::size_t tile_bytes = s.tile * s.kv_floats * sizeof(float);
    const std::string ptx = opencl_ptx_for_cuda(s.workload, base, tile_bytes);
    if (v.from == mri::KFrom::byvalue) return make_mri_byvalue_cross_runner(p, v, ptx, what);
    return std::make_unique<JitMri>(
        p, v, ptx, KernelSet{true, s.prepare, s.compute, ptx::kConstantArgSymbol}, what);
  }
  const std::string ptx = nvcc_ptx_for(s.workload, "precise");
  const KernelSet k{false, entry_named(ptx, s.nvcc_prepare, what),
                    entry_named(ptx, s.nvcc_compute, what),
                    variable_named(ptx, s.nvcc_constant, what)};
  return std::make_unique<JitMri>(p, v, ptx, k, what);
}

namespace {
GPUCMP_CROSS_RUNNERS("cuda") {
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd})
    mri::runners(kind).add("cuda", mri_cross_variants(), make_mri_cross_runner);
}
}  // namespace

}  // namespace gpucmp::cuda

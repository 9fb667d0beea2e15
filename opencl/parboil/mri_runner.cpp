// OpenCL runners of mriq and mrifhd: per launch, compute the per-k factors into
// the packed k-values, clear the outputs, then per tile copy the k-values into
// the constant buffer and launch the voxel kernel (mriq.cl, mrifhd.cl). The
// by-value form (mri::KFrom::byvalue) computes the per-k factors into the
// records on the host, clears the outputs, then passes each chunk of records
// as a kernel argument.
#include <string>
#include <vector>

#include "check.h"
#include "group_limit.h"
#include "kernel_args.h"
#include "program_spec_helpers.h"
#include "programs.h"
#include "runner_table.h"
#include "session.h"
#include "timed_runner.h"
#include "workloads/parboil/mri.h"
#include "workloads/parboil/mri_byvalue.h"

namespace gpucmp::opencl {

namespace {

struct Names {
  const char* prepare;    // the per-k kernel
  const char* compute;    // the voxel kernel
  const char* byvalue;    // the voxel kernel of the by-value form
  int tile;               // k-values per constant tile
  std::size_t kv_floats;  // floats per packed k-value
};

Names names(mri::Kind kind) {
  if (kind == mri::Kind::q) return {"ComputePhiMag", "ComputeQ", "ComputeQByValue", mri::kTileQ, 4};
  return {"ComputeRhoPhi", "ComputeFH", "ComputeFHByValue", mri::kTileFH, 5};
}

class MriRunner : public TimedRunner {
 public:
  MriRunner(mri::Problem& p, const mri::Variant& v)
      : p_(p),
        n_(names(p.kind)),
        byvalue_(v.from == mri::KFrom::byvalue),
        spec_(&program_spec(mri::workload_name(p.kind), v.name)),
        program_(session().program(*spec_)),
        compute_(make_kernel(program_, byvalue_ ? n_.byvalue : n_.compute)),
        x_local_(std::size_t(v.local.x)) {
    if (!mri::default_local(v))
      check_group_limit(compute_.get(), *spec_, byvalue_ ? n_.byvalue : n_.compute, v.local, 1);
    if (byvalue_) {
      per_launch_ = mri::byvalue_k(p.kind, session().info());  // the program's K_BYVALUE
    } else {
      prepare_ = make_kernel(program_, n_.prepare);
    }
  }

  void upload() override {
    const mri::Dataset& d = p_.data;
    x_ = to_device(d.x, "x");
    y_ = to_device(d.y, "y");
    z_ = to_device(d.z, "z");
    out_r_ = make_buffer(CL_MEM_READ_WRITE, std::size_t(d.numX) * sizeof(float), "real output");
    out_i_ = make_buffer(CL_MEM_READ_WRITE, std::size_t(d.numX) * sizeof(float), "imag output");
    if (byvalue_) return;  // the k-values go with each launch
    phiR_ = to_device(d.phiR, "phiR");
    phiI_ = to_device(d.phiI, "phiI");
    kv_ = to_device(mri::unfactored_records(d, p_.kind), "packed k-values");
    tile_ = make_buffer(CL_MEM_READ_ONLY, n_.tile * n_.kv_floats * sizeof(float), "k tile");
    const cl_int numK = d.numK;
    if (p_.kind == mri::Kind::q) {
      set_args(prepare_, n_.prepare, phiR_, phiI_, kv_, numK);
    } else {
      dR_ = to_device(d.dR, "dR");
      dI_ = to_device(d.dI, "dI");
      set_args(prepare_, n_.prepare, phiR_, phiI_, dR_, dI_, kv_, numK);
    }
  }

  void download() override {
    for (auto [buf, host] : {std::pair{&out_r_, &p_.out_r}, {&out_i_, &p_.out_i}})
      check(clEnqueueReadBuffer(session().queue(), *buf, CL_TRUE, 0, host->size() * sizeof(float),
                                host->data(), 0, nullptr, nullptr),
            "clEnqueueReadBuffer", "mri output");
  }
  double build_ms() const override { return program_.build_ms; }
  std::string label() const override { return describe(*spec_, &session().info()); }

 protected:
  void enqueue() override {
    const mri::Dataset& d = p_.data;
    cl_command_queue q = session().queue();
    if (byvalue_) {
      enqueue_byvalue(q);
      return;
    }
    const std::size_t block = mri::kBlock;
    const std::size_t k_global = (std::size_t(d.numK) + block - 1) / block * block;
    check(clEnqueueNDRangeKernel(q, prepare_, 1, nullptr, &k_global, &block, 0, nullptr, record()),
          "clEnqueueNDRangeKernel", n_.prepare);
    clear_outputs(q);
    const std::size_t x_global = this->x_global();
    const std::size_t kv_bytes = n_.kv_floats * sizeof(float);
    byvalue::for_each_chunk(d.numK, n_.tile, [&](int start, int count) {
      check(clEnqueueCopyBuffer(q, kv_, tile_, kv_bytes * start, 0, kv_bytes * count, 0, nullptr,
                                record()),
            "clEnqueueCopyBuffer", "k tile");
      set_args(compute_, n_.compute, cl_int(count), cl_int(d.numX), x_, y_, z_, out_r_, out_i_,
               tile_);
      check(clEnqueueNDRangeKernel(q, compute_, 1, nullptr, &x_global, &x_local_, 0, nullptr,
                                   record()),
            "clEnqueueNDRangeKernel", n_.compute);
    });
  }

 private:
  void clear_outputs(cl_command_queue q) {
    const float zero = 0.0f;
    for (const Buffer* out : {&out_r_, &out_i_})
      check(clEnqueueFillBuffer(q, *out, &zero, sizeof zero, 0, std::size_t(p_.data.numX) * 4, 0,
                                nullptr, record()),
            "clEnqueueFillBuffer", "mri output");
  }
  std::size_t x_global() const {
    return (std::size_t(p_.data.numX) + x_local_ - 1) / x_local_ * x_local_;
  }

  // The by-value form: the records filled on the host (the per-k factors:
  // host work of the timed launch), the outputs cleared, then one voxel kernel
  // a chunk of per_launch_ k-values, the chunk its last argument (mri_byvalue.h).
  void enqueue_byvalue(cl_command_queue q) {
    const mri::Dataset& d = p_.data;
    mri::fill_byvalue_records(d, p_.kind, per_launch_, records_);
    clear_outputs(q);
    const std::size_t x_global = this->x_global();
    const std::size_t chunk_bytes = n_.kv_floats * sizeof(float) * std::size_t(per_launch_);
    byvalue::for_each_chunk(d.numK, per_launch_, [&](int start, int count) {
      const ByValue chunk{records_.data() + n_.kv_floats * std::size_t(start), chunk_bytes};
      set_args(compute_, n_.byvalue, cl_int(count), cl_int(d.numX), x_, y_, z_, out_r_, out_i_,
               chunk);
      check(clEnqueueNDRangeKernel(q, compute_, 1, nullptr, &x_global, &x_local_, 0, nullptr,
                                   record()),
            "clEnqueueNDRangeKernel", n_.byvalue);
    });
  }

  static Buffer to_device(const std::vector<float>& host, const char* what) {
    Buffer b = make_buffer(CL_MEM_READ_WRITE, host.size() * sizeof(float), what);
    check(clEnqueueWriteBuffer(session().queue(), b, CL_TRUE, 0, host.size() * sizeof(float),
                               host.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer", what);
    return b;
  }

  mri::Problem& p_;
  Names n_;
  bool byvalue_;
  // program_specs()' stored entry (a pointer: see reduce_runner.cpp).
  const ProgramSpec* spec_;
  const BuiltProgram& program_;
  Kernel compute_, prepare_;  // prepare_: none by value
  std::size_t x_local_;       // work-group size of the voxel kernel
  Buffer x_, y_, z_, phiR_, phiI_, dR_, dI_, kv_, tile_, out_r_, out_i_;
  int per_launch_ = 0;          // byvalue: k-values a launch
  std::vector<float> records_;  // byvalue: filled by each launch (mri::fill_byvalue_records)
};

// The k loop bounded by the tile's count only (mri::KLoop::count_only).
constexpr const char* kCountOnly = "-DK_LOOP_COUNT_ONLY";
constexpr const char* kCountOnlyFast = "-DK_LOOP_COUNT_ONLY -cl-fast-relaxed-math";
// The origin's loop with each step's k-values read one step ahead (mri::KLoop::prefetch).
constexpr const char* kPrefetch = "-DK_LOOP_PREFETCH";
constexpr const char* kPrefetchFast = "-DK_LOOP_PREFETCH -cl-fast-relaxed-math";

// The k-values read as float4 (mriq.cl: one a k-value; mrifhd.cl: five a
// four): OpenCL's own source form, CUDA reads its tile from the constant bank.
constexpr const char* kVec4 = "-DK_VALUES_VEC4";
constexpr const char* kVec4Fast = "-DK_VALUES_VEC4 -cl-fast-relaxed-math";
const std::vector<mri::Variant> kVec4Variants{{"precise-vec4", false}, {"fast-vec4", true}};

// The by-value programs' chunk on the device they are built for.
std::string byvalue_define_q(const DeviceInfo& device) {
  return "-DK_BYVALUE=" + std::to_string(mri::byvalue_k(mri::Kind::q, device));
}
std::string byvalue_define_fh(const DeviceInfo& device) {
  return "-DK_BYVALUE=" + std::to_string(mri::byvalue_k(mri::Kind::fhd, device));
}

ProgramSpec byvalue(const std::string& workload, const std::string& variant,
                    const std::string& options) {
  ProgramSpec s = source(workload, variant, workload + ".cl", options);
  s.device_options = workload == "mriq" ? byvalue_define_q : byvalue_define_fh;
  s.arrays_by_value = true;
  return s;
}

// As cp, the k-values sit in a __constant__ symbol in CUDA and in a
// __constant kernel argument in OpenCL: no ptx-from-nvcc row (ptx/README.md).
GPUCMP_PROGRAMS {
  for (const char* workload : {"mriq", "mrifhd"}) {
    const std::string file = std::string(workload) + ".cl";
    const ProgramSpec precise = source(workload, "precise", file, "");
    specs.push_back(precise);
    specs.push_back(source(workload, "fast", file, kFast));
    specs.push_back(source(workload, "uniform-tile", file, kCountOnly));
    specs.push_back(source(workload, "uniform-tile-fast", file, kCountOnlyFast));
    specs.push_back(source(workload, "precise-prefetch", file, kPrefetch));
    specs.push_back(source(workload, "fast-prefetch", file, kPrefetchFast));
    specs.push_back(source(workload, "precise-vec4", file, kVec4));
    specs.push_back(source(workload, "fast-vec4", file, kVec4Fast));
    specs.push_back(byvalue(workload, "precise-byvalue", ""));
    specs.push_back(byvalue(workload, "fast-byvalue", kFast));
    add_ptx_controls(specs, precise);
    add_auto_chain(specs, precise);
  }
}

// The shared variants, then the PTX-loaded ones (same math as their source),
// then the float4 forms.
GPUCMP_RUNNERS("opencl") {
  const auto make = [](mri::Problem& p, const mri::Variant& v) {
    return std::make_unique<MriRunner>(p, v);
  };
  for (mri::Kind kind : {mri::Kind::q, mri::Kind::fhd}) {
    std::vector<mri::Variant> from_ptx;
    for (const ProgramSpec& s : ptx_variants(mri::workload_name(kind))) {
      from_ptx.push_back(mri::variant(s.base));
      from_ptx.back().name = s.variant;
    }
    mri::runners(kind).add("opencl", mri::variants(), make);
    mri::runners(kind).add("opencl", from_ptx, make);
    mri::runners(kind).add("opencl", kVec4Variants, make);
  }
}

}  // namespace

}  // namespace gpucmp::opencl

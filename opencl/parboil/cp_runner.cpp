// OpenCL runner of cp: per launch, clear the grid, then for each chunk of atoms
// copy it into the constant buffer and launch the kernel (cp.cl); the by-value
// form passes each chunk as a kernel argument instead (cp::Form).
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
#include "workloads/parboil/cp.h"

namespace gpucmp::opencl {

namespace {

// The kernel of a variant's kernel and form (cp.cl).
const char* kernel_name(const cp::Variant& v) {
  if (v.kernel == cp::Kernel::base) return "cp_base";
  if (v.form == cp::Form::byvalue) return "cp_unrollx8_byvalue";
  return v.form == cp::Form::prefetch ? "cp_unrollx8_prefetch" : "cp_unrollx8";
}

class CpRunner : public TimedRunner {
 public:
  CpRunner(cp::Problem& p, const cp::Variant& v)
      : p_(p),
        unrollx8_(v.kernel == cp::Kernel::unrollx8),
        byvalue_(v.form == cp::Form::byvalue),
        spec_(&program_spec("cp", v.name)),
        program_(session().program(*spec_)),
        kernel_(make_kernel(program_, kernel_name(v))),
        local_(v.local) {
    if (!cp::default_local(v)) check_group_limit(kernel_.get(), *spec_, kernel_name(v), local_, 2);
    if (byvalue_) {
      per_launch_ = cp::byvalue_atoms(session().info());  // the program's CP_BYVALUE_ATOMS
      chunks_ = cp::byvalue_chunks(p_, per_launch_);
    }
  }

  void upload() override {
    if (byvalue_) {  // the atoms go with each launch
      energy_ = make_buffer(CL_MEM_READ_WRITE, p_.energy.size() * sizeof(float), "cp energy");
      return;
    }
    const std::size_t atom_bytes = p_.atoms.size() * sizeof(float);
    atoms_ = make_buffer(CL_MEM_READ_ONLY, atom_bytes, "cp atoms");
    chunk_ = make_buffer(CL_MEM_READ_ONLY, std::size_t(cp::kAtomsPerChunk) * 4 * sizeof(float),
                         "cp chunk");
    energy_ = make_buffer(CL_MEM_READ_WRITE, p_.energy.size() * sizeof(float), "cp energy");
    check(clEnqueueWriteBuffer(session().queue(), atoms_, CL_TRUE, 0, atom_bytes, p_.atoms.data(),
                               0, nullptr, nullptr),
          "clEnqueueWriteBuffer", "cp atoms");
  }
  void download() override {
    check(clEnqueueReadBuffer(session().queue(), energy_, CL_TRUE, 0,
                              p_.energy.size() * sizeof(float), p_.energy.data(), 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer", "cp energy grid");
  }
  double build_ms() const override { return program_.build_ms; }
  std::string label() const override { return describe(*spec_, &session().info()); }

 protected:
  void enqueue() override {
    const cp::Config& c = p_.config;
    cl_command_queue q = session().queue();
    const float zero = 0.0f;
    check(clEnqueueFillBuffer(q, energy_, &zero, sizeof zero, 0, p_.energy.size() * sizeof(float),
                              0, nullptr, record()),
          "clEnqueueFillBuffer", "cp energy grid");
    const std::size_t local[2] = {std::size_t(local_.x), std::size_t(local_.y)};
    const std::size_t global[2] = {std::size_t(unrollx8_ ? c.nx / cp::kUnrollX : c.nx),
                                   std::size_t(c.ny)};
    if (byvalue_) {
      byvalue::for_each_chunk(c.atoms, per_launch_, [&](int start, int count) {
        const ByValue chunk{chunks_.data() + 4 * std::size_t(start),
                            4 * sizeof(float) * std::size_t(per_launch_)};
        set_args(kernel_, "cp by value", cl_int(count), c.spacing, energy_, chunk);
        check(clEnqueueNDRangeKernel(q, kernel_, 2, nullptr, global, local, 0, nullptr, record()),
              "clEnqueueNDRangeKernel", "cp by value");
      });
      return;
    }
    byvalue::for_each_chunk(c.atoms, cp::kAtomsPerChunk, [&](int start, int count) {
      check(clEnqueueCopyBuffer(q, atoms_, chunk_, 4 * sizeof(float) * std::size_t(start), 0,
                                4 * sizeof(float) * std::size_t(count), 0, nullptr, record()),
            "clEnqueueCopyBuffer", "cp atom chunk");
      set_args(kernel_, "cp", cl_int(count), c.spacing, energy_, chunk_);
      check(clEnqueueNDRangeKernel(q, kernel_, 2, nullptr, global, local, 0, nullptr, record()),
            "clEnqueueNDRangeKernel", "cp");
    });
  }

 private:
  cp::Problem& p_;
  bool unrollx8_, byvalue_;
  // program_specs()' stored entry (a pointer: see reduce_runner.cpp).
  const ProgramSpec* spec_;
  const BuiltProgram& program_;
  Kernel kernel_;
  LocalShape local_;
  Buffer atoms_, chunk_, energy_;
  int per_launch_ = 0;         // byvalue: atoms a launch
  std::vector<float> chunks_;  // byvalue: the atoms in whole chunks (cp::byvalue_chunks)
};

// The by-value programs' chunk on the device they are built for.
std::string byvalue_define(const DeviceInfo& device) {
  return "-DCP_BYVALUE_ATOMS=" + std::to_string(cp::byvalue_atoms(device));
}

ProgramSpec byvalue(const std::string& variant, const std::string& options) {
  ProgramSpec s = source("cp", variant, "cp.cl", options);
  s.device_options = byvalue_define;
  s.arrays_by_value = true;
  return s;
}

// The prefetch form's kernel (cp_unrollx8_prefetch) is built only where asked
// for, so that the other programs' PTX stays as it was.
std::string prefetch(const std::string& options) {
  return options.empty() ? "-DCP_PREFETCH" : options + " -DCP_PREFETCH";
}

GPUCMP_PROGRAMS {
  const ProgramSpec x8 = source("cp", "unrollx8", "cp.cl", "");
  const ProgramSpec fast = source("cp", "unrollx8-fast", "cp.cl", kFast);
  specs.push_back(source("cp", "base", "cp.cl", ""));
  specs.push_back(x8);
  specs.push_back(source("cp", "unrollx8-ieee", "cp.cl", kIeee));
  specs.push_back(fast);
  specs.push_back(source("cp", "unrollx8-fast-ftz", "cp.cl", kFastFtz));
  // ptx-ftz: the fast PTX with CUDA's fast-math denormal semantics (pass ftz).
  ProgramSpec fast_ftz = derived(fast, "ptx-ftz", ProgramFrom::ptx_as_built_passes);
  fast_ftz.passes = {"ftz"};
  specs.push_back(fast_ftz);
  // cp reads its atoms from a __constant__ symbol in CUDA and from a
  // __constant kernel argument in OpenCL: nvcc's PTX of it has a different
  // signature (ptx/README.md), so it has no ptx-from-nvcc row.
  add_ptx_controls(specs, x8);
  add_auto_chain(specs, x8);
  // The atoms by value (the parameters' constant bank) and read one step
  // ahead, in each math mode of unrollx8; the fast by-value build's own PTX
  // after the ftz pass, as unrollx8-fast-ptx-ftz.
  specs.push_back(byvalue("unrollx8-byvalue", ""));
  specs.push_back(byvalue("unrollx8-ieee-byvalue", kIeee));
  const ProgramSpec fast_byvalue = byvalue("unrollx8-fast-byvalue", kFast);
  specs.push_back(fast_byvalue);
  ProgramSpec fast_byvalue_ftz = derived(fast_byvalue, "ptx-ftz", ProgramFrom::ptx_as_built_passes);
  fast_byvalue_ftz.passes = {"ftz"};
  specs.push_back(fast_byvalue_ftz);
  specs.push_back(source("cp", "unrollx8-prefetch", "cp.cl", prefetch("")));
  specs.push_back(source("cp", "unrollx8-ieee-prefetch", "cp.cl", prefetch(kIeee)));
  specs.push_back(source("cp", "unrollx8-fast-prefetch", "cp.cl", prefetch(kFast)));
}

// The shared variants, then the PTX-loaded ones (same kernel and math as
// their source variant).
GPUCMP_RUNNERS("opencl") {
  const auto make = [](cp::Problem& p, const cp::Variant& v) {
    return std::make_unique<CpRunner>(p, v);
  };
  std::vector<cp::Variant> from_ptx;
  for (const ProgramSpec& s : ptx_variants("cp")) {
    from_ptx.push_back(cp::variant(s.base));
    from_ptx.back().name = s.variant;
  }
  cp::runners().add("opencl", cp::variants(), make);
  cp::runners().add("opencl", from_ptx, make);
}

}  // namespace

}  // namespace gpucmp::opencl

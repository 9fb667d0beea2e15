// --mriq-input / --mriq-output: Parboil's files in, Parboil's layout out.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "bench_process.h"
#include "workloads/mri.h"

namespace gpucmp::test {
namespace {

TEST(ParboilFiles, InputFileIsUsedAndOutputMatchesTheReference) {
  const std::string dir = temp_dir("mriq-files");
  const mri::Dataset d = mri::generate(mri::Kind::q, 64, 8);  // 512 voxels
  mri::write_parboil_input(dir + "/in.bin", d, mri::Kind::q);
  const ProcessResult r = run_bench("--mriq-input " + dir + "/in.bin --mriq-output " + dir +
                                    "/out.bin --samples 1 "
                                    "--benchmark_filter=mriq/opencl/precise");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("mriq/opencl/precise/numK:64/numX:512"), std::string::npos)
      << r.output;
  const auto [re, im] = mri::read_parboil_output(dir + "/out.bin");
  ASSERT_EQ(re.size(), 512u);
  // Voxel 0 against a direct double-precision sum.
  double want_re = 0, want_im = 0;
  for (int k = 0; k < d.numK; ++k) {
    const double arg = 2 * M_PI * (double(d.kx[k]) * d.x[0] + double(d.ky[k]) * d.y[0] +
                                   double(d.kz[k]) * d.z[0]);
    const double mag = double(d.phiR[k]) * d.phiR[k] + double(d.phiI[k]) * d.phiI[k];
    want_re += mag * std::cos(arg);
    want_im += mag * std::sin(arg);
  }
  EXPECT_NEAR(re[0], want_re, 1e-3 * std::fabs(want_re) + 1e-3);
  EXPECT_NEAR(im[0], want_im, 1e-3 * std::fabs(want_im) + 1e-3);
}

TEST(ParboilFiles, TruncatedInputIsAUsageErrorNamingFileAndField) {
  const std::string dir = temp_dir("mriq-truncated");
  const mri::Dataset d = mri::generate(mri::Kind::fhd, 16, 4);
  mri::write_parboil_input(dir + "/in.bin", d, mri::Kind::fhd);
  // An FHD file read as MRI-Q has 2 x numK floats too many.
  const ProcessResult r = run_bench("--mriq-input " + dir + "/in.bin --samples 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir + "/in.bin: oversized"), std::string::npos) << r.output;
  // And an MRI-Q file read as FHD ends inside dR.
  mri::write_parboil_input(dir + "/q.bin", mri::generate(mri::Kind::q, 16, 4), mri::Kind::q);
  const ProcessResult t = run_bench("--mrifhd-input " + dir + "/q.bin --samples 1");
  EXPECT_EQ(t.exit_code, 2) << t.output;
  EXPECT_NE(t.output.find("truncated in field 'dR'"), std::string::npos) << t.output;
}

}  // namespace
}  // namespace gpucmp::test

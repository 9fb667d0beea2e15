// Unit tests of the NVML reader (harness/nvml.h). Without NVML, or for a bus id
// no device has, the monitor says why and reads "unknown"; with a real device
// (GPUCMP_TEST_PCI_BUS_ID, e.g. from nvidia-smi --query-gpu=pci.bus_id) its
// readings are physically plausible and every spelling of the id finds it.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "nvml.h"

namespace gpucmp {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- no such device (or no NVML at all) -------------------------------------

TEST(ClockMonitor, BogusBusIdIsUnavailableAndSaysWhy) {
  // Domain ffff, bus ff: no machine has it; malformed ids must not match either.
  for (const std::string id : {"ffff:ff:1f.0", "not-a-bus-id", ""}) {
    SCOPED_TRACE("id '" + id + "'");
    const ClockMonitor monitor(id);
    EXPECT_FALSE(monitor.available());
    const std::string& why = monitor.why();
    EXPECT_FALSE(why.empty());
    EXPECT_FALSE(contains(why, "\n")) << why;
    // Either the library/init failed (named), or the lookup did (the id is named).
    EXPECT_TRUE(contains(why, "libnvidia-ml.so.1") || contains(why, "nvmlInit_v2") ||
                contains(why, "'" + id + "'"))
        << why;
  }
}

TEST(ClockMonitor, UnavailableReadsAreAllUnknown) {
  const ClockMonitor monitor("ffff:ff:1f.0");
  ASSERT_FALSE(monitor.available());
  const ClockReading r = monitor.read();
  EXPECT_EQ(r.sm_mhz, -1);
  EXPECT_EQ(r.mem_mhz, -1);
  EXPECT_EQ(r.sm_max_mhz, -1);
  EXPECT_EQ(r.mem_max_mhz, -1);
  EXPECT_EQ(r.temp_c, -1);
  EXPECT_EQ(r.power_w, -1);
  EXPECT_EQ(r.throttle_reasons, 0u);
  EXPECT_EQ(monitor.sm_mhz(), -1);
}

TEST(NvmlFacts, BogusBusIdHasNoLink) {
  const NvmlFacts facts = nvml_facts("ffff:ff:1f.0");
  EXPECT_EQ(facts.pcie_generation, 0);
  EXPECT_EQ(facts.pcie_width, 0);
}

// ---- a real device (GPU machines only) --------------------------------------

// The bus id of a real NVML device, or "" (then the test skips).
std::string test_bus_id() {
  const char* id = std::getenv("GPUCMP_TEST_PCI_BUS_ID");
  return id ? id : "";
}

// Other spellings of the same id: upper/lower case, 4- vs 8-digit domain,
// with and without the function (pci_id() leaves it out).
std::vector<std::string> spellings(const std::string& id) {
  std::string lower = id, upper = id;
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  const std::size_t colon = lower.find(':');                       // >= 4 (checked)
  const std::string rest = lower.substr(colon);                    // ":1b:00.0"
  const std::string short_id = lower.substr(colon - 4, 4) + rest;  // "0000:1b:00.0"
  return {lower, upper, short_id, "0000" + short_id,
          short_id.substr(0, short_id.rfind('.'))};  // "0000:1b:00"
}

TEST(ClockMonitor, RealDeviceReadingsArePlausible) {
  const std::string id = test_bus_id();
  if (id.empty()) GTEST_SKIP() << "GPUCMP_TEST_PCI_BUS_ID not set (no NVML device to test)";
  const ClockMonitor monitor(id);
  ASSERT_TRUE(monitor.available()) << monitor.why();
  EXPECT_TRUE(monitor.why().empty()) << monitor.why();

  const ClockReading r = monitor.read();
  // Maximum clocks of any NVIDIA GPU lie in 0.1..5 GHz; current ones at most the maximum.
  EXPECT_GE(r.sm_max_mhz, 100);
  EXPECT_LE(r.sm_max_mhz, 5000);
  EXPECT_GE(r.mem_max_mhz, 100);
  EXPECT_LE(r.mem_max_mhz, 20000);
  EXPECT_GT(r.sm_mhz, 0);
  EXPECT_LE(r.sm_mhz, r.sm_max_mhz);
  EXPECT_GT(r.mem_mhz, 0);
  EXPECT_LE(r.mem_mhz, r.mem_max_mhz);
  EXPECT_GT(r.temp_c, 0);  // a running GPU is above freezing and below boiling
  EXPECT_LT(r.temp_c, 100);
  EXPECT_GT(r.power_w, 1);  // watts, not milliwatts: an idle datacenter GPU draws 20..100 W
  EXPECT_LT(r.power_w, 2000);
  const double sm = monitor.sm_mhz();
  EXPECT_GT(sm, 0);
  EXPECT_LE(sm, r.sm_max_mhz);

  const NvmlFacts facts = nvml_facts(id);
  EXPECT_FALSE(facts.driver_version.empty());
  EXPECT_GE(facts.pcie_generation, 1);
  EXPECT_LE(facts.pcie_generation, 7);
  EXPECT_GE(facts.pcie_width, 1);
  EXPECT_LE(facts.pcie_width, 32);
}

TEST(ClockMonitor, RealDeviceFoundByEverySpellingOfItsBusId) {
  const std::string id = test_bus_id();
  if (id.empty()) GTEST_SKIP() << "GPUCMP_TEST_PCI_BUS_ID not set (no NVML device to test)";
  const std::size_t colon = id.find(':');
  ASSERT_TRUE(colon != std::string::npos && colon >= 4 && id.find('.') != std::string::npos)
      << "GPUCMP_TEST_PCI_BUS_ID '" << id << "' is not domain:bus:device.function";
  const double sm_max = ClockMonitor(id).read().sm_max_mhz;
  ASSERT_GT(sm_max, 0);
  for (const std::string& spelling : spellings(id)) {
    const ClockMonitor monitor(spelling);
    EXPECT_TRUE(monitor.available()) << spelling << ": " << monitor.why();
    EXPECT_EQ(monitor.read().sm_max_mhz, sm_max) << spelling;  // the same device
  }
}

}  // namespace
}  // namespace gpucmp

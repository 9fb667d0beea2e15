// Unit tests of the API registry (api_registry.h): an API linked into the
// program but not registered, or registered twice, stops the program.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "api_registry.h"

namespace gpucmp {
namespace {

std::string message_of(const std::vector<std::string>& built,
                       const std::vector<std::string>& registered) {
  try {
    check_apis_registered(built, registered);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

TEST(ApiRegistry, EveryBuiltApiRegistered) {
  EXPECT_EQ(message_of({"cuda", "opencl"}, {"cuda", "opencl"}), "");
  EXPECT_EQ(message_of({"opencl"}, {"opencl"}), "");
}

TEST(ApiRegistry, ABuiltApiThatDidNotRegisterIsNamed) {
  const std::string why = message_of({"cuda", "opencl"}, {"opencl"});
  EXPECT_NE(why.find("'cuda'"), std::string::npos) << why;
  EXPECT_NE(why.find("did not register"), std::string::npos) << why;
}

TEST(ApiRegistry, AnApiRegisteredTwiceIsAnError) {
  const std::string why = message_of({"opencl"}, {"opencl", "opencl"});
  EXPECT_NE(why.find("registered twice"), std::string::npos) << why;
}

TEST(ApiRegistry, MakingTheApisChecksTheBuiltList) {
  // This test program links no API: the registry is empty.
  EXPECT_THROW(make_registered_apis({"opencl"}), std::logic_error);
  EXPECT_TRUE(make_registered_apis({}).empty());
}

}  // namespace
}  // namespace gpucmp

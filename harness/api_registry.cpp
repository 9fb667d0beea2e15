#include "api_registry.h"

#include <algorithm>
#include <stdexcept>

#include "runner_table.h"

namespace gpucmp {
namespace {

struct RegisteredApi {
  std::string name;
  int rank;
  ApiFactory make;
  ApiInstall install;
};

std::vector<RegisteredApi>& registry() {
  static std::vector<RegisteredApi> apis;
  return apis;
}

}  // namespace

ApiRegistrar::ApiRegistrar(const char* name, int rank, ApiFactory make, ApiInstall install) {
  registry().push_back({name, rank, make, install});
}

void check_apis_registered(const std::vector<std::string>& built,
                           const std::vector<std::string>& registered) {
  for (size_t i = 0; i < registered.size(); ++i)
    if (std::find(registered.begin() + static_cast<std::ptrdiff_t>(i) + 1, registered.end(),
                  registered[i]) != registered.end())
      throw std::logic_error("the API '" + registered[i] + "' is registered twice");
  for (const auto& name : built)
    if (std::find(registered.begin(), registered.end(), name) == registered.end())
      throw std::logic_error("the API '" + name +
                             "' is linked into this program but did not register itself "
                             "(GPUCMP_API in its <api>_api.cpp, harness/api_registry.h)");
}

std::vector<std::unique_ptr<Api>> make_registered_apis(const std::vector<std::string>& built) {
  auto entries = registry();
  std::stable_sort(entries.begin(), entries.end(),
                   [](const RegisteredApi& a, const RegisteredApi& b) { return a.rank < b.rank; });
  std::vector<std::string> names;
  names.reserve(entries.size());
  for (const auto& e : entries) names.push_back(e.name);
  check_apis_registered(built, names);
  std::vector<std::unique_ptr<Api>> apis;
  apis.reserve(entries.size());
  for (const auto& e : entries) {
    apis.push_back(e.make());
    register_api_runners(e.name);
    if (e.install != nullptr) e.install();
  }
  return apis;
}

}  // namespace gpucmp

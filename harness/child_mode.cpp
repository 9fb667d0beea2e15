#include "child_mode.h"

#include <map>
#include <stdexcept>

namespace gpucmp {

namespace {
std::map<std::string, ChildMain>& modes() {
  static std::map<std::string, ChildMain> m;
  return m;
}
}  // namespace

bool register_child_mode(const std::string& flag, ChildMain run) {
  if (flag.rfind("--gpucmp-child-", 0) != 0)
    throw std::logic_error("child mode flag '" + flag + "' must start with --gpucmp-child-");
  if (!modes().emplace(flag, run).second)
    throw std::logic_error("child mode '" + flag + "' registered twice");
  return true;
}

int run_child_mode(int argc, char** argv) {
  if (argc < 2) return -1;
  const auto it = modes().find(argv[1]);
  return it == modes().end() ? -1 : it->second(argc, argv);
}

}  // namespace gpucmp

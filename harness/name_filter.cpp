#include "name_filter.h"

#include "errors.h"

namespace gpucmp {

NameFilter::NameFilter(const std::string& filter) {
  if (filter.empty() || filter == "all") return;
  negate_ = filter[0] == '-';
  const std::string pattern = negate_ ? filter.substr(1) : filter;
  const int rc = regcomp(&re_, pattern.c_str(), REG_EXTENDED | REG_NOSUB);
  if (rc != 0) {
    char why[256];
    regerror(rc, &re_, why, sizeof why);
    throw UsageError("--benchmark_filter='" + filter + "': not a valid regular expression (" + why +
                     ")");
  }
  compiled_ = true;
}

NameFilter::~NameFilter() {
  if (compiled_) regfree(&re_);
}

bool NameFilter::selects(const std::string& name) const {
  if (!compiled_) return true;
  return (regexec(&re_, name.c_str(), 0, nullptr, 0) == 0) != negate_;
}

int NameFilter::count(const std::vector<std::string>& names) const {
  int n = 0;
  for (const auto& name : names) n += selects(name);
  return n;
}

}  // namespace gpucmp

#include "app/assume_option.h"

#include <charconv>
#include <cstdint>

namespace portcheck {

std::optional<cost::Env> parseAssumptions(const std::vector<std::string>& args, std::string& bad) {
  cost::Env assumed;
  for (const std::string& a : args) {
    const std::size_t eq = a.find('=');
    std::int64_t value = 0;
    const char* end = a.data() + a.size();
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.size() ||
        std::from_chars(a.data() + eq + 1, end, value).ptr != end) {
      bad = a;
      return std::nullopt;
    }
    assumed[a.substr(0, eq)] = value;
  }
  return assumed;
}

}  // namespace portcheck

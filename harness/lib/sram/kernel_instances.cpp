// Instances of kernels of inline functions: an inline function spliced into a program several times
// (called on several paths, by several inline functions, or inside pl.unroll) gives each of its
// kernels one instance per splice, named as dsl/kernel_naming.cpp predicts (IncoreRegion::
// instance_names); each instance carries the first one's estimate.
#include "sram/sram_estimator_internal.h"

#include <algorithm>

namespace portcheck::sram::detail {

std::string instanceName(const std::string& kernel, const std::string& base, const std::string& instance) {
  if (kernel.compare(0, base.size(), base) != 0) return instance;
  return instance + kernel.substr(base.size());
}

}  // namespace portcheck::sram::detail

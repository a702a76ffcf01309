#include "lint/kernel/member_default_init_check.h"

#include <algorithm>

namespace portcheck {

using namespace kernel;

void MemberDefaultInitCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  // Only files with device code: host drivers (main.cpp, runtime setup) keep their C++ initializers.
  const KernelModel& m = ctx.model;
  bool device = std::any_of(m.functions.begin(), m.functions.end(),
                            [](const Function& f) { return f.aicore || f.entry || f.tile_function; }) ||
                std::any_of(m.calls.begin(), m.calls.end(), [](const Call& c) { return c.instruction != nullptr; });
  if (!device) return;
  for (const Record& r : ctx.model.records) {
    if (!r.reach.inAutoMode()) continue;
    for (const Field& f : r.fields)
      if (f.has_default)
        out.push_back(at(ctx, f.pos, "member '" + f.name + "' of '" + (r.name.empty() ? "<anonymous>" : r.name) +
                                         "' has a default member initializer, which defeats scalar replacement "
                                         "(SROA) of kernel structs"));
  }
}

}  // namespace portcheck

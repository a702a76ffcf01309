#include "lint/kernel/member_default_init_check.h"

namespace portcheck {

using namespace kernel;

void MemberDefaultInitCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
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

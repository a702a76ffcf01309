#include "lint/kernel/impl_runtime_branch_check.h"

#include <set>

namespace portcheck {

using namespace kernel;

void ImplRuntimeBranchCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  std::set<std::string> tile_functions;
  for (const Function& f : m.functions)
    if (f.tile_function) tile_functions.insert(f.name);
  if (tile_functions.empty()) return;
  for (const IfStatement& s : m.ifs) {
    const Function* f = m.functionOf(s.function);
    if (s.is_constexpr || !f || f->tile_function || !f->name.ends_with("_IMPL") || !s.reach.inAutoMode()) continue;
    for (const Call& c : m.calls) {
      if (c.function != s.function || c.pos.byte < s.body_begin || c.pos.byte >= s.end) continue;
      if (!c.object.empty() || !tile_functions.count(c.name)) continue;
      out.push_back(at(ctx, s.pos, "runtime condition '" + s.condition_text + "' in " + f->name +
                                       " decides whether tile function " + c.name +
                                       " runs; the AUTO compiler cannot see through the branch"));
      break;
    }
  }
}

}  // namespace portcheck

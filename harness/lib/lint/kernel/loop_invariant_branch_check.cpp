#include "lint/kernel/loop_invariant_branch_check.h"

namespace portcheck {

using namespace kernel;

void LoopInvariantBranchCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const IfStatement& s : m.ifs) {
    if (s.is_constexpr || s.loop < 0 || !s.reach.inAutoMode() || isLibraryFunction(m, s.function)) continue;
    if (!hasPtoCall(m, s.body_begin, s.end, s.function)) continue;
    const Loop& loop = m.loops[s.loop];
    bool varies = false, runtime = false;
    for (const std::string& name : s.condition_names) {
      if (loop.writes(name)) varies = true;
      bool constant = false;
      for (const Comparison& c : s.comparisons)
        if ((c.left == name && c.left_constant) || (c.right == name && c.right_constant)) constant = true;
      if (!constant) runtime = true;
    }
    if (!varies && runtime) {
      out.push_back(at(ctx, s.pos, "the condition '" + s.condition_text +
                                       "' does not change inside the loop at line " + std::to_string(loop.pos.line) +
                                       "; a runtime branch inside the loop blocks the AUTO compiler's pipelining of "
                                       "the PTO work in it"));
    } else if (s.compound) {
      out.push_back(at(ctx, s.pos, "compound guard '" + s.condition_text +
                                       "' directly around PTO work; the AUTO compiler schedules PTO work better when "
                                       "the guard is computed into a bool first"));
    }
  }
}

}  // namespace portcheck

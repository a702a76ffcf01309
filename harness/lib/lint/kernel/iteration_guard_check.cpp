#include "lint/kernel/iteration_guard_check.h"

#include "kernel/kernel_source.h"

namespace portcheck {

using namespace kernel;

namespace {

// The loop (this one or an enclosing one) whose header declares `name`, or -1.
int inductionLoop(const KernelModel& m, int loop, std::string_view name) {
  for (; loop >= 0; loop = m.loops[loop].parent)
    for (const std::string& v : m.loops[loop].induction)
      if (v == name) return loop;
  return -1;
}

bool mentionsBound(const Loop& loop, std::string_view expr) {
  for (const std::string& b : loop.bound)
    if (containsWord(expr, b)) return true;
  return false;
}

}  // namespace

void IterationGuardCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const IfStatement& s : m.ifs) {
    if (s.is_constexpr || s.loop < 0 || !s.reach.inAutoMode() || isLibraryFunction(m, s.function)) continue;
    if (!hasPtoCall(m, s.body_begin, s.end, s.function)) continue;
    for (const Comparison& c : s.comparisons) {
      if (c.op != "==" && c.op != "!=") continue;
      int left_loop = c.left.empty() || c.right_constant ? -1 : inductionLoop(m, s.loop, c.left);
      int right_loop = c.right.empty() || c.left_constant ? -1 : inductionLoop(m, s.loop, c.right);
      // A last-iteration guard compares the counter with the loop's own bound (`i == n - 1` in `i < n`);
      // `rank != myRank` (skip one iteration in the middle) is not one.
      bool left = left_loop >= 0 && mentionsBound(m.loops[left_loop], c.right_text);
      bool right = right_loop >= 0 && mentionsBound(m.loops[right_loop], c.left_text);
      if (!left && !right) continue;
      const std::string& counter = left ? c.left : c.right;
      const std::string& bound = left ? c.right_text : c.left_text;
      out.push_back(at(ctx, s.pos, "iteration guard '" + counter + " " + c.op + " " + bound +
                                       "' around PTO work compares the loop counter with a runtime value; the AUTO "
                                       "compiler can peel the first/last iteration only when the bound is a "
                                       "compile-time constant"));
      break;
    }
  }
}

}  // namespace portcheck

#include "advice/loop_into_scope_check.h"

#include "advice/advice_text.h"
#include "advice/task_graph.h"
#include "rules/catalogue.h"

namespace portcheck {

void LoopIntoScopeCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  double low = percentOption(ctx.settings, "fuse.low_usage_percent", 30.0);
  for (const advice::TaskGraph& g : advice::buildTaskGraphs(ctx.program, ctx.kernels)) {
    const dsl::Function& fn = ctx.program.files[static_cast<std::size_t>(g.file_index)]
                                  .functions[static_cast<std::size_t>(g.function_index)];
    for (const advice::Task& t : g.tasks) {
      if (t.enclosing_loop < 0 || t.estimates.size() != 1) continue;
      const dsl::Stmt& ls = fn.stmts[static_cast<std::size_t>(t.enclosing_loop)];
      if (ls.loop < 0) continue;
      const dsl::Loop& loop = fn.loops[static_cast<std::size_t>(ls.loop)];
      if (loop.iter != dsl::LoopIter::PlRange && loop.iter != dsl::LoopIter::PlParallel) continue;
      // The dispatch must be the loop body's only one.
      int in_loop = 0;
      for (const advice::Task& o : g.tasks)
        if (fn.contains(t.enclosing_loop, o.stmt)) ++in_loop;
      if (in_loop != 1) continue;
      const sram::KernelEstimate& k = ctx.kernels[static_cast<std::size_t>(t.estimates[0])];
      const sram::SpaceEstimate* dom = advice::dominantSpace(k.spaces);
      if (!dom || 100.0 * static_cast<double>(dom->hwm) >= low * static_cast<double>(dom->capacity)) continue;
      std::string trips = loop.trip_count ? std::to_string(*loop.trip_count) : "N";
      Diagnostic d = makeDiagnostic(
          id(), t.file, ls.loc.line, 1,
          "the " + std::string(dsl::loopIterName(loop.iter)) + " loop dispatches the small kernel '" + t.kernel +
              "' " + trips + " times (" + dom->space + " " + std::to_string(dom->hwm) + " of " +
              std::to_string(dom->capacity) + " bytes, " + advice::percent(dom->hwm, dom->capacity) +
              "): move the loop inside the scope for one dispatch; the tiles are reused across iterations, so the "
              "estimate stays " + std::to_string(dom->hwm) + " bytes");
      d.notes.push_back({t.file, t.line, 0, "the scope dispatched in the loop"});
      out.push_back(std::move(d));
    }
  }
}

}  // namespace portcheck

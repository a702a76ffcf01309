#include "advice/merge_parallel_scopes_check.h"

#include <map>

#include "advice/advice_text.h"
#include "advice/task_graph.h"
#include "rules/catalogue.h"

namespace portcheck {

void MergeParallelScopesCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const advice::TaskGraph& g : advice::buildTaskGraphs(ctx.program, ctx.kernels)) {
    const dsl::Function& fn = ctx.program.files[static_cast<std::size_t>(g.file_index)]
                                  .functions[static_cast<std::size_t>(g.function_index)];
    std::map<int, std::vector<const advice::Task*>> by_loop;  // pl.parallel statement -> its dispatches
    for (const advice::Task& t : g.tasks) {
      if (t.enclosing_loop < 0) continue;
      const dsl::Stmt& ls = fn.stmts[static_cast<std::size_t>(t.enclosing_loop)];
      if (ls.loop < 0 || fn.loops[static_cast<std::size_t>(ls.loop)].iter != dsl::LoopIter::PlParallel) continue;
      by_loop[t.enclosing_loop].push_back(&t);
    }
    for (const auto& [loop, tasks] : by_loop) {
      if (tasks.size() < 2) continue;
      auto merged = advice::mergedEstimate(ctx.kernels, tasks, ctx.settings.platform);
      const sram::SpaceEstimate* dom = advice::dominantSpace(merged);
      if (!dom) continue;
      bool fits = true;
      for (const auto& s : merged) fits &= s.capacity <= 0 || s.hwm <= s.capacity;
      if (!fits) continue;
      std::string names;
      for (std::size_t i = 0; i < tasks.size(); ++i) names += (i ? ", '" : "'") + tasks[i]->kernel + "'";
      const dsl::Stmt& ls = fn.stmts[static_cast<std::size_t>(loop)];
      Diagnostic d = makeDiagnostic(
          id(), tasks.front()->file, tasks.front()->line, 1,
          "merge the " + std::to_string(tasks.size()) + " incore scopes " + names + " of the pl.parallel body (line " +
              std::to_string(ls.loc.line) + ") into one scope: one dispatch per iteration instead of " +
              std::to_string(tasks.size()) + "; merged, the estimated " + dom->space + " use is " +
              std::to_string(dom->hwm) + " of " + std::to_string(dom->capacity) + " bytes (" +
              advice::percent(dom->hwm, dom->capacity) + ")");
      for (std::size_t i = 1; i < tasks.size(); ++i)
        d.notes.push_back({tasks[i]->file, tasks[i]->line, 0, "scope '" + tasks[i]->kernel + "' of the same body"});
      out.push_back(std::move(d));
    }
  }
}

}  // namespace portcheck

#include "advice/loop_into_scope_check.h"

#include <algorithm>
#include <cstdio>

#include "advice/advice_text.h"
#include "advice/core_count.h"
#include "advice/task_graph.h"
#include "cost/schedule_cost.h"
#include "perf/device_schedule.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// The device time of `tasks` dispatches of one kernel doing `work` each, alone on the platform.
double siteMicros(const cost::KernelWork& work, std::int64_t tasks, const std::string& core, Platform platform) {
  cost::ScheduleCost c;
  cost::KernelCost k;
  k.kernel = "k";
  k.core = core.empty() ? "AIV" : core;
  k.dispatches = tasks;
  k.work_per_task = work;
  c.kernels.push_back(std::move(k));
  return perf::deviceTime(c, perf::deviceSpec(platform)).total_us.value_or(0);
}

// One task's work after `chunk` trips of the loop around it move inside: `chunk` times the work, as
// many more iterations to overlap.
cost::KernelWork movedInside(const cost::KernelWork& w, std::int64_t chunk) {
  cost::KernelWork m;
  for (std::int64_t i = 0; i < chunk; ++i) m += w;
  m.iterations = w.iterations * chunk;
  return m;
}

}  // namespace

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
      if (!loop.trip_count || *loop.trip_count < 2) continue;
      const std::int64_t trips = *loop.trip_count;
      // Tasks left after the move come only from the loops around this one; keep at least one per
      // core of the kernel's kind (moving the loop below the core count idles the rest). An
      // enclosing loop of unknown trip count counts as one iteration.
      std::int64_t outer = 1;
      for (int l = ls.enclosing_loop; l >= 0; l = fn.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
        const dsl::Stmt& os = fn.stmts[static_cast<std::size_t>(l)];
        if (os.loop >= 0)
          if (const auto& tc = fn.loops[static_cast<std::size_t>(os.loop)].trip_count; tc && *tc > 0) outer *= *tc;
      }
      const int cores = advice::coreCount(ctx.settings.platform, k.core);
      // The largest chunk of iterations to move inside (a divisor of the trip count) that still
      // leaves `cores` tasks.
      std::int64_t chunk = 1;
      const std::int64_t need = (cores + outer - 1) / outer;  // chunks the loop must keep
      for (std::int64_t n = std::max<std::int64_t>(need, 1); n <= trips / 2 && n < need + 4096; ++n)
        if (trips % n == 0) {
          chunk = trips / n;
          break;
        }
      if (chunk < 2) continue;
      // Weighed by time: the dispatches saved against the cores left idle, in the device-time model.
      std::string time_text;
      std::string why;
      if (std::optional<cost::KernelWork> w = cost::kernelWork(ctx.program, k, why)) {
        const std::int64_t tasks = trips * outer;
        const double now = siteMicros(*w, tasks, k.core, ctx.settings.platform);
        const double moved = siteMicros(movedInside(*w, chunk), tasks / chunk, k.core, ctx.settings.platform);
        if (moved > 0.9 * now) continue;
        char b[96];
        std::snprintf(b, sizeof b, " (est. %.1f -> %.1f us for these dispatches, docs/perf-model.md)", now, moved);
        time_text = b;
      }
      const std::string where = std::string(dsl::loopIterName(loop.iter)) + " loop";
      const std::string usage = "(" + dom->space + " " + std::to_string(dom->hwm) + " of " +
                                std::to_string(dom->capacity) + " bytes, " + advice::percent(dom->hwm, dom->capacity) + ")";
      const std::string core_text = std::to_string(cores) + " " + (k.core == "AIC" ? "AIC" : "AIV") + " cores of " +
                                    std::string(toString(ctx.settings.platform));
      std::string msg;
      if (chunk == trips)
        msg = "the " + where + " dispatches the small kernel '" + t.kernel + "' " + std::to_string(trips) + " times " +
              usage + ": move the loop inside the scope for one dispatch per outer iteration (" +
              std::to_string(outer) + " tasks, still at least one per each of the " + core_text +
              "); the tiles are reused across iterations, so the estimate stays " + std::to_string(dom->hwm) + " bytes";
      else
        msg = "the " + where + " dispatches the small kernel '" + t.kernel + "' " + std::to_string(trips * outer) +
              " times " + usage + ": split it into " + std::to_string(trips / chunk) + " chunks of " +
              std::to_string(chunk) + " iterations and move the inner loop inside the scope (" +
              std::to_string(outer * (trips / chunk)) + " tasks for the " + core_text +
              "); the tiles are reused across iterations, so the estimate stays " + std::to_string(dom->hwm) + " bytes";
      Diagnostic d = makeDiagnostic(id(), t.file, ls.loc.line, 1, msg + time_text);
      d.notes.push_back({t.file, t.line, 0, "the scope dispatched in the loop"});
      out.push_back(std::move(d));
    }
  }
}

}  // namespace portcheck

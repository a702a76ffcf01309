#include "advice/serial_blocks_check.h"

#include <cstdio>

#include "cost/schedule_cost.h"
#include "output/figures.h"
#include "perf/device_schedule.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// The loop of a kernel's region that walks its blocks: the region's first top-level loop with a static
// trip count of 2 or more, whose iterations carry no value from one to the next. -1 when none.
int independentBlockLoop(const dsl::Function& fn, const dsl::IncoreRegion& region) {
  for (int s = region.first; s < region.last; ++s) {
    const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(s)];
    if (st.loop < 0) continue;
    const int top = region.stmt >= 0 ? region.stmt : -1;
    if (st.parent != top) {
      s = st.subtree_end - 1;
      continue;
    }
    const dsl::Loop& loop = fn.loops[static_cast<std::size_t>(st.loop)];
    if (!loop.trip_count || *loop.trip_count < 2 || !loop.carried.empty()) return -1;
    for (const dsl::Value& v : fn.values)
      if (v.loop_carried && v.carried_loop == s) return -1;
    return s;
  }
  return -1;
}


}  // namespace

void SerialBlocksCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  const cost::ScheduleCost cost = cost::scheduleCost(ctx.program, ctx.kernels, ctx.settings.platform);
  if (cost.kernels.empty()) return;
  const perf::DeviceSpec& spec = perf::deviceSpec(ctx.settings.platform);
  const perf::DeviceTime now = perf::deviceTime(cost, spec);
  if (!now.total_us || *now.total_us <= 0) return;
  for (std::size_t s = 0; s < cost.kernels.size(); ++s) {
    const cost::KernelCost& k = cost.kernels[s];
    if (!k.dispatches || !k.work_per_task || k.estimates.empty() || k.cores <= 0) continue;
    const std::int64_t tasks = *k.dispatches;
    if (tasks * 2 > k.cores) continue;  // at least half the cores have a task
    const sram::KernelEstimate& e = ctx.kernels[static_cast<std::size_t>(k.estimates.front())];
    const dsl::Function* fn = ctx.program.function({e.file_index, e.function_index});
    if (!fn || e.region < 0) continue;
    const int loop = independentBlockLoop(*fn, fn->regions[static_cast<std::size_t>(e.region)]);
    if (loop < 0) continue;
    const dsl::Stmt& ls = fn->stmts[static_cast<std::size_t>(loop)];
    const std::int64_t blocks = *fn->loops[static_cast<std::size_t>(ls.loop)].trip_count;
    // Split into the most parts (a divisor of the block count) that the idle cores can take.
    std::int64_t parts = 1;
    for (std::int64_t p = std::min<std::int64_t>(blocks, k.cores / tasks); p >= 2; --p)
      if (blocks % p == 0) {
        parts = p;
        break;
      }
    if (parts < 2) continue;
    cost::ScheduleCost split = cost;
    cost::KernelCost& ks = split.kernels[s];
    ks.dispatches = tasks * parts;
    ks.blocks = k.blocks * parts;  // the blocks as one pl.spmd launch per task: no more submits
    ks.work_per_task = cost::splitWork(*k.work_per_task, parts);
    ks.task_work.clear();
    for (cost::KernelCost& other : split.kernels)
      for (cost::SiteDependency& d : other.after)
        if (d.site == static_cast<int>(s)) d.pairwise = false;
    const perf::DeviceTime then = perf::deviceTime(split, spec);
    if (!then.total_us || *then.total_us * 1.5 > *now.total_us) continue;
    const std::string kind = k.core == "AIV" ? "AIV" : "AIC";
    char gain[16];
    std::snprintf(gain, sizeof gain, "%.1fx", *now.total_us / *then.total_us);
    const std::string msg =
        "kernel '" + k.kernel + "' walks " + std::to_string(blocks) + " independent blocks one after another in " +
        std::to_string(tasks) + (tasks == 1 ? " task" : " tasks") + " on " + std::to_string(tasks) + " of the " +
        std::to_string(k.cores) + " " + kind + " cores of " + std::string(toString(ctx.settings.platform)) +
        " (est. " + microseconds(*now.total_us) + " us for the run); " + std::to_string(tasks * parts) + " tasks of " +
        std::to_string(blocks / parts) + (blocks / parts == 1 ? " block" : " blocks") + " each, launched as pl.spmd(" +
        std::to_string(parts) + ") blocks, would take est. " +
        microseconds(*then.total_us) + " us (" + gain + ", docs/perf-model.md)";
    Diagnostic d = makeDiagnostic(id(), e.file, ls.loc.line, ls.loc.col, msg);
    out.push_back(std::move(d));
  }
}

}  // namespace portcheck

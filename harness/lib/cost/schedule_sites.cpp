#include "cost/schedule_sites.h"

#include "advice/core_count.h"
#include "cost/kernel_work.h"

namespace portcheck::cost {

using dsl::Function;

int coresFor(const std::vector<sram::KernelEstimate>& kernels, const std::vector<int>& estimates, Platform platform) {
  return advice::coreCount(platform, advice::coreUse(kernels, estimates).cube ? "AIC" : "AIV");
}

std::string coreKind(const std::vector<sram::KernelEstimate>& kernels, const std::vector<int>& estimates) {
  const advice::CoreUse use = advice::coreUse(kernels, estimates);
  return use.cube && use.vector ? "MIX" : use.cube ? "AIC" : "AIV";
}

bool holdsRunTimeBranch(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel) {
  const Function* fn = model.function({kernel.file_index, kernel.function_index});
  if (!fn || kernel.region < 0 || static_cast<std::size_t>(kernel.region) >= fn->regions.size()) return false;
  const dsl::IncoreRegion& region = fn->regions[static_cast<std::size_t>(kernel.region)];
  for (int s = region.first; s < region.last && static_cast<std::size_t>(s) < fn->stmts.size(); ++s) {
    const dsl::Stmt& st = fn->stmts[static_cast<std::size_t>(s)];
    if (st.kind == dsl::StmtKind::If && (st.value < 0 || !fn->exprs[static_cast<std::size_t>(st.value)].number.known()))
      return true;
  }
  return false;
}

bool readsBlockIndex(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel) {
  const Function* fn = model.function({kernel.file_index, kernel.function_index});
  if (!fn || kernel.region < 0 || static_cast<std::size_t>(kernel.region) >= fn->regions.size()) return false;
  const dsl::IncoreRegion& region = fn->regions[static_cast<std::size_t>(kernel.region)];
  if (region.stmt < 0) return false;
  const dsl::Stmt& scope = fn->stmts[static_cast<std::size_t>(region.stmt)];
  if (scope.scope < 0 || fn->scopes[static_cast<std::size_t>(scope.scope)].kind != dsl::ScopeKind::Spmd) return false;
  for (int c : fn->calls) {
    const dsl::Expr& e = fn->exprs[static_cast<std::size_t>(c)];
    if (e.stmt >= region.first && e.stmt < region.last && e.isPlCall() && e.opName() == "get_block_idx") return true;
  }
  return false;
}

void dropSmallerBranches(const dsl::Function& fn, const advice::TaskGraph& g, std::size_t first_site,
                         const std::set<int>& undecided, const std::vector<std::int64_t>& site_gm, ScheduleCost& cost) {
  std::set<std::size_t> dropped;
  for (auto it = undecided.rbegin(); it != undecided.rend(); ++it) {
    const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(*it)];
    int other = -1;
    for (int c = *it + 1; c < st.subtree_end; c = fn.stmts[static_cast<std::size_t>(c)].subtree_end)
      if (fn.stmts[static_cast<std::size_t>(c)].kind == dsl::StmtKind::Else) other = c;
    if (other < 0) continue;
    const int then_first = *it + 1, else_first = other + 1, else_end = fn.stmts[static_cast<std::size_t>(other)].subtree_end;
    double weight[2] = {0, 0};
    std::vector<std::size_t> sites[2];
    bool known = true;
    for (std::size_t i = 0; i < g.tasks.size(); ++i) {
      const int s = g.tasks[i].stmt;
      const int side = s >= then_first && s < other ? 0 : s >= else_first && s < else_end ? 1 : -1;
      if (side < 0 || dropped.count(i)) continue;
      const KernelCost& k = cost.kernels[first_site + i];
      if (!k.dispatches || !k.work_per_task) {
        known = false;
        break;
      }
      weight[side] += static_cast<double>(*k.dispatches) * serialMicros(*k.work_per_task);
      sites[side].push_back(i);
    }
    if (!known) continue;
    for (std::size_t i : sites[weight[0] >= weight[1] ? 1 : 0]) {
      KernelCost& k = cost.kernels[first_site + i];
      if (cost.tasks) *cost.tasks -= *k.dispatches;
      if (cost.gm_bytes) *cost.gm_bytes -= site_gm[i];
      k.dispatches = 0;
      k.task_work.clear();
      dropped.insert(i);
    }
  }
}

}  // namespace portcheck::cost

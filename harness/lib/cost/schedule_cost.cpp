#include "cost/schedule_cost.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "advice/core_count.h"
#include "cost/kernel_work.h"

namespace portcheck::cost {

namespace {

using dsl::Expr;
using dsl::Function;
using dsl::Value;

// The trips of all loops around `stmt` in its function: the product of their static trip counts, else,
// when a loop's bounds are an outer loop's variable (`pl.parallel(h * 2, h * 2 + 2)`), the number of
// assignments of their variables; nullopt with `why` when neither is known.
std::optional<std::int64_t> runsAround(const dsl::FileModel& file, const Function& fn, int stmt, std::string& why,
                                       const Env& assumed) {
  if (std::optional<std::int64_t> trips = tripsAround(file, fn, stmt, 0, -1, why, assumed)) return trips;
  const std::vector<Env> envs = loopEnvs(fn, stmt, assumed, kTaskLimit);
  if (envs.empty()) return std::nullopt;
  why.clear();
  return static_cast<std::int64_t>(envs.size());
}

// The blocks one dispatch of statement `stmt` launches: a `for i in pl.spmd(n)` body's n (its bound
// evaluated under `assumed` when not static), else 1; nullopt when an spmd count is not known.
std::optional<std::int64_t> spmdBlocks(const Function& fn, int stmt, const Env& assumed) {
  const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(stmt)];
  if (st.loop < 0 || fn.loops[static_cast<std::size_t>(st.loop)].iter != dsl::LoopIter::PlSpmd) return 1;
  return tripCount(fn, stmt, assumed);
}

// The dispatches of the dispatching statement `stmt` per run of its function: once per trip of every loop
// around it, and a `for i in pl.spmd(n)` body once per block too (its own loop counts); nullopt with
// `why` when a count is not static.
std::optional<std::int64_t> dispatchesAt(const dsl::FileModel& file, const Function& fn, int stmt, std::string& why,
                                         const Env& assumed) {
  const std::optional<std::int64_t> own = spmdBlocks(fn, stmt, assumed);
  if (!own) {
    why = "block count of the pl.spmd at " + where(file, fn, stmt);
    return std::nullopt;
  }
  std::optional<std::int64_t> trips = runsAround(file, fn, stmt, why, assumed);
  if (!trips) return std::nullopt;
  return *trips * *own;
}

// A call of a kernel or stage: the calling function (in file `file`) and the call expression.
struct CallSite {
  int file = -1;
  const Function* caller = nullptr;
  const Expr* call = nullptr;
};

// The calls of an inline stage from the functions of the run (not from other stages or kernels).
template <typename InRun>
std::vector<CallSite> stageCalls(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel, const InRun& inRun) {
  std::vector<CallSite> out;
  for (const dsl::FunctionRef r : model.allFunctions()) {
    if (!inRun(r.file) || (r.file == kernel.file_index && r.function == kernel.function_index)) continue;
    const Function* caller = model.function(r);
    if (!caller || caller->isInline() || caller->isIncoreFunction()) continue;
    for (int c : caller->calls) {
      const Expr& call = caller->exprs[static_cast<std::size_t>(c)];
      const dsl::FunctionRef target = model.callee(*caller, call);
      if (target.file == kernel.file_index && target.function == kernel.function_index && call.stmt >= 0)
        out.push_back({r.file, caller, &call});
    }
  }
  return out;
}

// The dispatches of one run of a pl.at scope of an inline stage: its dispatches per run of the stage,
// times the trips around each call of the stage from a function of the run. nullopt with `why` empty
// when no function of the run calls the stage, with `why` set when a trip count is not static.
template <typename InRun>
std::optional<std::int64_t> stageDispatches(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                            const InRun& inRun, std::string& why, const Env& assumed) {
  const Function* stage = model.function({kernel.file_index, kernel.function_index});
  if (!stage || kernel.region < 0 || static_cast<std::size_t>(kernel.region) >= stage->regions.size()) return std::nullopt;
  const dsl::FileModel& stage_file = model.files[static_cast<std::size_t>(kernel.file_index)];
  const int scope = stage->regions[static_cast<std::size_t>(kernel.region)].stmt;
  if (scope < 0) return std::nullopt;
  std::optional<std::int64_t> inside = dispatchesAt(stage_file, *stage, scope, why, assumed);
  if (!inside) return std::nullopt;
  const std::vector<CallSite> sites = stageCalls(model, kernel, inRun);
  if (sites.empty()) return std::nullopt;
  std::int64_t calls = 0;
  for (const CallSite& site : sites) {
    std::optional<std::int64_t> around =
        runsAround(model.files[static_cast<std::size_t>(site.file)], *site.caller, site.call->stmt, why, assumed);
    if (!around) return std::nullopt;
    calls += *around;
  }
  return calls * *inside;
}

// The cores the tasks of a kernel spread over: the AIVs for a vector-only kernel, else the AICs (a cube
// kernel, or a mixed one, which takes a cluster of one AIC and its AIVs per task).
int coresFor(const std::vector<sram::KernelEstimate>& kernels, const std::vector<int>& estimates, Platform platform) {
  return advice::coreCount(platform, advice::coreUse(kernels, estimates).cube ? "AIC" : "AIV");
}

// "AIV" for a vector-only kernel, "AIC" for a cube-only one, "MIX" for one using both (a cluster).
std::string coreKind(const std::vector<sram::KernelEstimate>& kernels, const std::vector<int>& estimates) {
  const advice::CoreUse use = advice::coreUse(kernels, estimates);
  return use.cube && use.vector ? "MIX" : use.cube ? "AIC" : "AIV";
}

// The bytes a kernel moves when they differ from task to task (a loop in it whose trip count is a
// loop variable of the orchestration, or a scalar the task is called with): summed over every task of
// the run, and the largest task's. Each task's values come from `calls`: the call sites whose callee
// holds the kernel (none: the kernel's region sits in the dispatching function
// itself, under its loops).
struct VaryingWork {
  KernelWork total;                // summed over the tasks
  std::int64_t largest = 0;        // the largest task's GM bytes
  std::int64_t tasks = 0;
  std::vector<KernelWork> each;    // every task's, in dispatch order
};

std::optional<VaryingWork> varyingWork(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                         const std::vector<CallSite>& calls, const Env& assumed) {
  const Function* fn = model.function({kernel.file_index, kernel.function_index});
  if (!fn || kernel.region < 0) return std::nullopt;
  const int scope = fn->regions[static_cast<std::size_t>(kernel.region)].stmt;
  std::vector<Env> bases;
  if (calls.empty()) {
    bases.push_back(assumed);
  } else {
    for (const CallSite& site : calls) {
      if (site.call->stmt < 0) return std::nullopt;
      for (const Env& e : loopEnvs(*site.caller, site.call->stmt, assumed, kTaskLimit)) {
        Env bound = assumed;
        for (const auto& [name, value] : bindParams(*site.caller, *site.call, *fn, e)) bound[name] = value;
        bases.push_back(std::move(bound));
      }
      if (bases.empty()) return std::nullopt;
    }
  }
  VaryingWork v;
  for (const Env& base : bases) {
    // The loops of the kernel's own function around its scope dispatch it too (an InCore function: none).
    std::vector<Env> envs = scope >= 0 ? loopEnvs(*fn, scope, base, kTaskLimit) : std::vector<Env>{base};
    if (envs.empty()) return std::nullopt;
    for (const Env& env : envs) {
      std::string why;
      std::optional<KernelWork> w = kernelWork(model, kernel, why, env);
      if (!w || ++v.tasks > static_cast<std::int64_t>(kTaskLimit)) return std::nullopt;
      v.total += *w;
      v.largest = std::max(v.largest, w->gmBytes());
      v.each.push_back(*w);
    }
  }
  return v;
}

}  // namespace

std::optional<std::int64_t> kernelGmBytes(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                          std::string& why) {
  std::optional<KernelWork> w = kernelWork(model, kernel, why);
  return w ? std::optional<std::int64_t>(w->gmBytes()) : std::nullopt;
}

ScheduleCost scheduleCost(const dsl::ProgramModel& model, const std::vector<sram::KernelEstimate>& kernels,
                          Platform platform, const std::vector<std::string>& entry_files, const Env& assumed) {
  auto inRun = [&](int file_index) {
    const std::string& path = model.files[static_cast<std::size_t>(file_index)].path;
    return entry_files.empty() || std::find(entry_files.begin(), entry_files.end(), path) != entry_files.end();
  };
  ScheduleCost cost;
  cost.tasks = 0;
  cost.gm_bytes = 0;
  cost.critical_gm_bytes = 0;
  auto unknown = [&](std::optional<std::int64_t>& figure, const std::string& why) {
    figure.reset();
    if (std::find(cost.unknown.begin(), cost.unknown.end(), why) == cost.unknown.end()) cost.unknown.push_back(why);
  };
  std::set<int> dispatched;  // kernel estimates some task dispatches
  int graph_number = 0;
  for (const advice::TaskGraph& g : advice::buildTaskGraphs(model, kernels)) {
    if (!inRun(g.file_index)) continue;
    const dsl::FileModel& file = model.files[static_cast<std::size_t>(g.file_index)];
    const Function& fn = file.functions[static_cast<std::size_t>(g.function_index)];
    const std::size_t first_site = cost.kernels.size();
    for (const advice::Task& t : g.tasks) {
      KernelCost k;
      k.kernel = t.kernel;
      k.graph = graph_number;
      k.enclosing_loop = t.enclosing_loop;
      k.estimates = t.estimates;
      std::string why;
      k.dispatches = dispatchesAt(file, fn, t.stmt, why, assumed);
      k.blocks = std::max<std::int64_t>(1, spmdBlocks(fn, t.stmt, assumed).value_or(1));
      if (!k.dispatches) unknown(cost.tasks, why);
      // One dispatch runs both halves of a split kernel.
      bool known = true;
      KernelWork fixed;                                 // per task, the regions every task works alike
      KernelWork varying_total;                         // the regions whose work differs per task
      std::int64_t varying_max = 0;
      std::vector<KernelWork> each;                     // per task, when some region differs
      std::set<std::tuple<int, int, int>> regions;  // the _aic / _aiv halves and repeated instances share one
      for (int e : t.estimates) {
        dispatched.insert(e);
        const sram::KernelEstimate& ke = kernels[static_cast<std::size_t>(e)];
        if (!regions.insert({ke.file_index, ke.function_index, ke.region}).second) continue;
        std::string bwhy;
        if (std::optional<KernelWork> w = kernelWork(model, ke, bwhy, assumed)) {
          fixed += *w;
          continue;
        }
        // Work that depends on the task: count each task under its loop variables.
        std::vector<CallSite> calls;
        const bool own = ke.file_index == g.file_index && ke.function_index == g.function_index;
        const int value = fn.stmts[static_cast<std::size_t>(t.stmt)].value;
        if (!own && value >= 0 && fn.exprs[static_cast<std::size_t>(value)].kind == dsl::ExprKind::Call)
          calls.push_back({g.file_index, &fn, &fn.exprs[static_cast<std::size_t>(value)]});
        std::optional<VaryingWork> v;
        if (own || !calls.empty()) v = varyingWork(model, ke, calls, assumed);
        if (!v || !k.dispatches || v->tasks != *k.dispatches) {
          known = false;
          unknown(cost.gm_bytes, bwhy);
          break;
        }
        varying_total += v->total;
        varying_max += v->largest;
        if (each.empty()) each.resize(v->each.size());
        for (std::size_t i = 0; i < each.size() && i < v->each.size(); ++i) each[i] += v->each[i];
      }
      std::optional<std::int64_t> bytes;  // per task (the largest task's when they differ)
      if (known) {
        bytes = fixed.gmBytes() + varying_max;
        KernelWork largest = fixed;
        if (!each.empty()) {
          std::size_t top = 0;
          for (std::size_t i = 1; i < each.size(); ++i)
            if (each[i].gmBytes() > each[top].gmBytes()) top = i;
          largest += each[top];
          for (KernelWork& w : each) w += fixed;
          k.task_work = std::move(each);
        }
        k.work_per_task = largest;
      }
      k.gm_bytes_per_task = bytes;
      k.cores = coresFor(kernels, t.estimates, platform);
      k.core = coreKind(kernels, t.estimates);
      if (cost.tasks && k.dispatches) *cost.tasks += *k.dispatches;
      if (cost.gm_bytes && k.dispatches && bytes) *cost.gm_bytes += *k.dispatches * fixed.gmBytes() + varying_total.gmBytes();
      else if (!k.dispatches) unknown(cost.gm_bytes, why);
      cost.kernels.push_back(std::move(k));
    }
    // The producer -> consumer edges of the graph: a consumer task waits for the producer's tasks, the
    // task of the same trip when both are dispatched alike under the same loop, else all of them.
    for (const advice::Edge& e : g.edges) {
      if (e.from < 0 || e.to < 0 || e.from == e.to) continue;
      KernelCost& from = cost.kernels[first_site + static_cast<std::size_t>(e.from)];
      KernelCost& to = cost.kernels[first_site + static_cast<std::size_t>(e.to)];
      const int site = static_cast<int>(first_site) + e.from;
      if (std::any_of(to.after.begin(), to.after.end(), [&](const SiteDependency& d) { return d.site == site; })) continue;
      const bool pairwise = from.enclosing_loop >= 0 && from.enclosing_loop == to.enclosing_loop && from.dispatches &&
                            to.dispatches && *from.dispatches == *to.dispatches;
      to.after.push_back({site, pairwise});
    }
    ++graph_number;
  }
  // The pl.at scopes of inline stages (@pl.jit.inline, a pypto-lib block's stage) are dispatched where
  // a function of the run calls the stage.
  std::set<std::tuple<int, int, int>> stage_regions;
  for (std::size_t e = 0; e < kernels.size(); ++e) {
    const sram::KernelEstimate& ke = kernels[e];
    if (dispatched.count(static_cast<int>(e)) || ke.repeated) continue;
    const Function* stage = model.function({ke.file_index, ke.function_index});
    if (!stage || !stage->isInline()) continue;
    std::string why;
    std::optional<std::int64_t> calls = stageDispatches(model, ke, inRun, why, assumed);
    if (!calls) {
      if (!why.empty()) {
        unknown(cost.tasks, why);
        unknown(cost.gm_bytes, why);
        dispatched.insert(static_cast<int>(e));
      }
      continue;
    }
    dispatched.insert(static_cast<int>(e));
    // The _aic / _aiv halves of one scope are one dispatch.
    if (!stage_regions.insert({ke.file_index, ke.function_index, ke.region}).second) continue;
    KernelCost k;
    k.kernel = ke.split ? ke.kernel.substr(0, ke.kernel.size() - 4) : ke.kernel;  // without _aic / _aiv
    k.dispatches = calls;
    // The halves of a split scope share its source region: its bytes are counted once.
    std::string bwhy;
    std::optional<std::int64_t> bytes = kernelGmBytes(model, ke, bwhy);
    std::vector<int> halves;
    for (std::size_t h = 0; h < kernels.size(); ++h)
      if (!kernels[h].repeated && kernels[h].file_index == ke.file_index &&
          kernels[h].function_index == ke.function_index && kernels[h].region == ke.region)
        halves.push_back(static_cast<int>(h));
    k.cores = coresFor(kernels, halves, platform);
    k.core = coreKind(kernels, halves);
    k.estimates = halves;
    k.graph = graph_number++;  // a stage's dispatches follow everything dispatched before them
    for (std::size_t before = 0; before < cost.kernels.size(); ++before) k.after.push_back({static_cast<int>(before), false});
    std::string wwhy;
    if (std::optional<KernelWork> w = kernelWork(model, ke, wwhy, assumed)) k.work_per_task = *w;
    if (cost.tasks) *cost.tasks += *calls;
    std::optional<std::int64_t> all = bytes ? std::optional<std::int64_t>(*calls * *bytes) : std::nullopt;
    if (!bytes) {
      // Bytes that depend on the task: count each task under the values the run calls the stage with.
      if (std::optional<VaryingWork> v = varyingWork(model, ke, stageCalls(model, ke, inRun), assumed); v && v->tasks == *calls) {
        all = v->total.gmBytes();
        bytes = v->largest;
        std::size_t top = 0;
        for (std::size_t i = 1; i < v->each.size(); ++i)
          if (v->each[i].gmBytes() > v->each[top].gmBytes()) top = i;
        if (!v->each.empty()) k.work_per_task = v->each[top];
        k.task_work = std::move(v->each);
      }
    }
    if (!all) unknown(cost.gm_bytes, bwhy);
    else if (cost.gm_bytes) *cost.gm_bytes += *all;
    k.gm_bytes_per_task = bytes;
    cost.kernels.push_back(std::move(k));
  }
  for (std::size_t e = 0; e < kernels.size(); ++e)
    if (!dispatched.count(static_cast<int>(e)) && !kernels[e].repeated && inRun(kernels[e].file_index)) {
      const std::string why = "kernel " + kernels[e].kernel + " is not dispatched by an orchestration the model follows";
      unknown(cost.tasks, why);
      unknown(cost.gm_bytes, why);
    }
  // Each dispatch site in waves of at most one task per core; the sites one after the other.
  for (const KernelCost& k : cost.kernels) {
    if (!cost.critical_gm_bytes) break;
    if (!k.dispatches || !k.gm_bytes_per_task || k.cores <= 0) {
      cost.critical_gm_bytes.reset();
      break;
    }
    const std::int64_t waves = (*k.dispatches + k.cores - 1) / k.cores;
    *cost.critical_gm_bytes += waves * *k.gm_bytes_per_task;
  }
  if (!cost.gm_bytes || !cost.tasks) cost.critical_gm_bytes.reset();
  return cost;
}

}  // namespace portcheck::cost

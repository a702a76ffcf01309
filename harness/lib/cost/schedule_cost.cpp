#include "cost/schedule_cost.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "advice/core_count.h"
#include "cost/kernel_work.h"
#include "cost/schedule_sites.h"
#include "cost/stage_order.h"

namespace portcheck::cost {

namespace {

using dsl::Expr;
using dsl::Function;
using dsl::Value;

// The trips of all loops around `stmt` in its function: the product of their static trip counts, else,
// when a loop's bounds are an outer loop's variable (`pl.parallel(h * 2, h * 2 + 2)`), the number of
// assignments of their variables; nullopt with `why` when neither is known.
std::optional<std::int64_t> runsAround(const dsl::FileModel& file, const Function& fn, int stmt, std::string& why,
                                       const Env& assumed, std::set<int>* undecided = nullptr) {
  if (std::optional<std::int64_t> trips = tripsAround(file, fn, stmt, 0, -1, why, assumed, undecided)) return trips;
  const std::optional<std::vector<Env>> envs = loopEnvs(fn, stmt, assumed, kTaskLimit);
  if (!envs) return std::nullopt;
  why.clear();
  return static_cast<std::int64_t>(envs->size());
}

// The block count expression of a `with pl.spmd(n) [as tid]:` scope statement, -1 for any other.
int withSpmdCount(const Function& fn, int stmt) {
  const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(stmt)];
  if (st.scope < 0) return -1;
  const dsl::Scope& scope = fn.scopes[static_cast<std::size_t>(st.scope)];
  if (scope.kind != dsl::ScopeKind::Spmd || scope.call < 0) return -1;
  return fn.arg(fn.exprs[static_cast<std::size_t>(scope.call)], 0, "core_num");
}

// The blocks one dispatch of statement `stmt` launches: a `for i in pl.spmd(n)` body's n (its bound
// evaluated under `assumed` when not static), else 1; nullopt when an spmd count is not known.
std::optional<std::int64_t> spmdBlocks(const Function& fn, int stmt, const Env& assumed) {
  const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(stmt)];
  if (const int n = withSpmdCount(fn, stmt); n >= 0) return evalIndex(fn, n, assumed);
  if (st.loop < 0 || fn.loops[static_cast<std::size_t>(st.loop)].iter != dsl::LoopIter::PlSpmd) return 1;
  return tripCount(fn, stmt, assumed);
}

// The dispatches of the dispatching statement `stmt` per run of its function: once per trip of every loop
// around it, and a `for i in pl.spmd(n)` body once per block too (its own loop counts); nullopt with
// `why` when a count is not static.
std::optional<std::int64_t> dispatchesAt(const dsl::FileModel& file, const Function& fn, int stmt, std::string& why,
                                         const Env& assumed, std::set<int>* undecided = nullptr) {
  const std::optional<std::int64_t> own = spmdBlocks(fn, stmt, assumed);
  if (!own) {
    why = "block count of the pl.spmd at " + where(file, fn, stmt);
    return std::nullopt;
  }
  std::optional<std::int64_t> trips = runsAround(file, fn, stmt, why, assumed, undecided);
  if (!trips) return std::nullopt;
  return *trips * *own;
}

// A call of a kernel or stage: the calling function (in file `file`) and the call expression; `times`:
// how often one run runs the caller (1 for a function of the run; an inline stage calling another, as
// often as the run calls it).
struct CallSite {
  int file = -1;
  const Function* caller = nullptr;
  const Expr* call = nullptr;
  std::int64_t times = 1;
  // The values of the caller's parameters in each of its runs (an inline stage called by another: as
  // its callers bind them); empty: the run's own function, whose values are the assumed ones.
  std::vector<Env> caller_envs;
};

// Every binding of the parameters of `callee` over the runs of `site`: per run of the caller, per trip
// of the loops around the call it is made in, the values the call passes (none: the call is never made);
// nullopt when a trip count is not known or past kTaskLimit.
std::optional<std::vector<Env>> calleeEnvs(const CallSite& site, const Function& callee, const Env& assumed) {
  std::vector<Env> out;
  const std::vector<Env> runs = site.caller_envs.empty() ? std::vector<Env>{assumed} : site.caller_envs;
  for (const Env& run : runs) {
    const std::optional<std::vector<Env>> envs = loopEnvs(*site.caller, site.call->stmt, run, kTaskLimit);
    if (!envs) return std::nullopt;
    for (const Env& e : *envs) {
      if (out.size() >= kTaskLimit) return std::nullopt;
      Env bound = assumed;
      for (const auto& [name, value] : bindParams(*site.caller, *site.call, callee, e)) bound[name] = value;
      out.push_back(std::move(bound));
    }
  }
  return out;
}

// How often one run makes the call of `site`: per run of its caller (under the values the caller's
// callers bind, when followed), the trips of the loops and taken branches around it.
std::optional<std::int64_t> callRuns(const dsl::ProgramModel& model, const CallSite& site, std::string& why,
                                     const Env& assumed) {
  const dsl::FileModel& file = model.files[static_cast<std::size_t>(site.file)];
  if (site.caller_envs.empty()) {
    std::optional<std::int64_t> around = runsAround(file, *site.caller, site.call->stmt, why, assumed);
    if (!around) return std::nullopt;
    return *around * site.times;
  }
  std::int64_t runs = 0;
  for (const Env& env : site.caller_envs) {
    std::optional<std::int64_t> around = runsAround(file, *site.caller, site.call->stmt, why, env);
    if (!around) return std::nullopt;
    runs += *around;
  }
  return runs;
}

// The deepest chain of inline stages calling inline stages the count follows.
constexpr int kStageDepth = 8;

// The calls of function `target` (an inline stage) that a run makes: from the functions of the run, and
// from inline stages the run reaches (attention -> its qkv_proj stage -> ...), each with how often the
// run runs its caller. Empty with `why` empty when nothing of the run reaches the stage; with `why` set
// when a trip count on the way is not known.
template <typename InRun>
std::vector<CallSite> stageCallsOf(const dsl::ProgramModel& model, dsl::FunctionRef target, const InRun& inRun,
                                   std::string& why, const Env& assumed, int depth);

template <typename InRun>
std::vector<CallSite> stageCallsOf(const dsl::ProgramModel& model, dsl::FunctionRef target, const InRun& inRun,
                                   std::string& why, const Env& assumed, int depth) {
  std::vector<CallSite> out;
  if (depth > kStageDepth) return out;
  for (const dsl::FunctionRef r : model.allFunctions()) {
    if (r.file == target.file && r.function == target.function) continue;
    const Function* caller = model.function(r);
    if (!caller || caller->isIncoreFunction()) continue;
    const bool nested = caller->isInline();
    if (!nested && !inRun(r.file)) continue;
    bool asked = false;
    std::optional<std::int64_t> times = 1;
    std::vector<Env> caller_envs;
    for (int c : caller->calls) {
      const Expr& call = caller->exprs[static_cast<std::size_t>(c)];
      const dsl::FunctionRef callee = model.callee(*caller, call);
      if (callee.file != target.file || callee.function != target.function || call.stmt < 0) continue;
      if (nested && !asked) {
        // How often the run runs the calling stage, and its parameters' values in each run.
        asked = true;
        std::string inner;
        const std::vector<CallSite> outer = stageCallsOf(model, r, inRun, inner, assumed, depth + 1);
        if (outer.empty()) {
          if (!inner.empty()) {
            why = inner;
            return {};
          }
          times.reset();
        } else {
          times = 0;
          bool follow = true;
          for (const CallSite& o : outer) {
            std::optional<std::int64_t> around = callRuns(model, o, why, assumed);
            if (!around) return {};
            *times += *around;
            if (!follow) continue;
            if (o.times != 1 && o.caller_envs.empty()) {  // runs whose values were not followed
              follow = false;
              caller_envs.clear();
              continue;
            }
            const std::optional<std::vector<Env>> envs = calleeEnvs(o, *caller, assumed);
            if (!envs || caller_envs.size() + envs->size() > kTaskLimit) {
              follow = false;
              caller_envs.clear();
              continue;
            }
            caller_envs.insert(caller_envs.end(), envs->begin(), envs->end());
          }
        }
      }
      if (times) out.push_back({r.file, caller, &call, *times, caller_envs});
    }
  }
  return out;
}

// The dispatches of one run of a pl.at scope of an inline stage, per call of the stage (`sites`, the
// stage's calls as stageCallsOf found them, with its `why`): its dispatches per run of the stage times
// the runs of that call. nullopt with `why` empty when nothing of the run reaches the stage, with `why`
// set when a trip count is not static.
std::optional<std::vector<std::int64_t>> stageDispatchesByCall(const dsl::ProgramModel& model,
                                                               const sram::KernelEstimate& kernel,
                                                               const std::vector<CallSite>& sites, std::string& why,
                                                               const Env& assumed) {
  const Function* stage = model.function({kernel.file_index, kernel.function_index});
  if (!stage || kernel.region < 0 || static_cast<std::size_t>(kernel.region) >= stage->regions.size()) return std::nullopt;
  const dsl::FileModel& stage_file = model.files[static_cast<std::size_t>(kernel.file_index)];
  const int scope = stage->regions[static_cast<std::size_t>(kernel.region)].stmt;
  if (scope < 0) return std::nullopt;
  std::string inside_why;
  std::set<int> undecided;  // branches the stage's parameters may decide: counted call by call below
  const std::optional<std::int64_t> inside = dispatchesAt(stage_file, *stage, scope, inside_why, assumed, &undecided);
  if (sites.empty()) {
    if (why.empty() && !(inside && undecided.empty())) why = inside_why;
    return std::nullopt;
  }
  // Every run of the stage alike: its dispatches per run times the runs of each call.
  auto alike = [&]() -> std::optional<std::vector<std::int64_t>> {
    if (!inside) {
      why = inside_why;
      return std::nullopt;
    }
    std::vector<std::int64_t> out;
    for (const CallSite& site : sites) {
      const std::optional<std::int64_t> runs = callRuns(model, site, why, assumed);
      if (!runs) return std::nullopt;
      out.push_back(*runs * *inside);
    }
    return out;
  };
  if (inside && undecided.empty()) return alike();
  // Loops of the stage around the scope bound by its parameters (`for sb in pl.range(ctx_blocks)`,
  // ctx_blocks from a scalar the call passes), or branches they decide: counted call by call, under the
  // values each passes.
  std::vector<std::int64_t> out;
  for (const CallSite& site : sites) {
    if (site.times != 1 && site.caller_envs.empty()) return alike();  // the values of its runs not followed
    const std::optional<std::vector<Env>> envs = calleeEnvs(site, *stage, assumed);
    if (!envs) return alike();
    std::int64_t total = 0;
    for (const Env& env : *envs) {
      std::optional<std::int64_t> n = dispatchesAt(stage_file, *stage, scope, why, env);
      if (!n) return std::nullopt;
      total += *n;
    }
    out.push_back(total);
  }
  return out;
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
      if (!site.caller_envs.empty()) {
        // A caller that is itself a stage: each of its runs with its own values.
        std::optional<std::vector<Env>> bound = calleeEnvs(site, *fn, assumed);
        if (!bound) return std::nullopt;
        for (Env& b : *bound) bases.push_back(std::move(b));
      } else {
        const std::optional<std::vector<Env>> envs = loopEnvs(*site.caller, site.call->stmt, assumed, kTaskLimit);
        if (!envs) return std::nullopt;
        for (const Env& e : *envs) {
          Env bound = assumed;
          for (const auto& [name, value] : bindParams(*site.caller, *site.call, *fn, e)) bound[name] = value;
          // A caller the run runs `times` times (values not followed) calls it alike each time.
          for (std::int64_t t = 0; t < site.times && bases.size() < kTaskLimit; ++t) bases.push_back(bound);
        }
      }
    }
  }
  VaryingWork v;
  for (const Env& base : bases) {
    // The loops of the kernel's own function around its scope dispatch it too (an InCore function: none).
    std::optional<std::vector<Env>> around = scope >= 0 ? loopEnvs(*fn, scope, base, kTaskLimit) : std::vector<Env>{base};
    if (!around) return std::nullopt;
    std::vector<Env> envs = std::move(*around);
    // A `for i in pl.spmd(n)` scope: each of its n blocks is a task with its own i.
    if (scope >= 0) {
      const dsl::Stmt& st = fn->stmts[static_cast<std::size_t>(scope)];
      if (st.loop >= 0 && fn->loops[static_cast<std::size_t>(st.loop)].iter == dsl::LoopIter::PlSpmd &&
          fn->loops[static_cast<std::size_t>(st.loop)].targets.size() == 1) {
        const std::string& var = fn->loops[static_cast<std::size_t>(st.loop)].targets[0];
        std::vector<Env> blocks;
        for (const Env& env : envs) {
          const std::optional<Range> r = rangeOf(*fn, scope, env);
          if (!r) return std::nullopt;
          for (std::int64_t i = 0; i < r->trips; ++i) {
            if (blocks.size() >= kTaskLimit) return std::nullopt;
            Env b = env;
            b[var] = r->start + i * r->step;
            blocks.push_back(std::move(b));
          }
        }
        envs = std::move(blocks);
      }
      // A `with pl.spmd(n)` scope: each of its n blocks is a task, its get_block_idx() its own block.
      if (const int count = withSpmdCount(*fn, scope); count >= 0) {
        std::vector<Env> blocks;
        for (const Env& env : envs) {
          const std::optional<std::int64_t> n = evalIndex(*fn, count, env);
          if (!n || *n < 1) return std::nullopt;
          for (std::int64_t i = 0; i < *n; ++i) {
            if (blocks.size() >= kTaskLimit) return std::nullopt;
            Env b = env;
            b[kBlockIndexName] = i;
            blocks.push_back(std::move(b));
          }
        }
        envs = std::move(blocks);
      }
    }
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
    std::set<int> undecided;             // if statements around dispatches decided by run-time data
    std::vector<std::int64_t> site_gm;   // the GM bytes each site added to the run's
    for (const advice::Task& t : g.tasks) {
      KernelCost k;
      k.kernel = t.kernel;
      k.graph = graph_number;
      k.enclosing_loop = t.enclosing_loop;
      k.estimates = t.estimates;
      std::string why;
      k.dispatches = dispatchesAt(file, fn, t.stmt, why, assumed, &undecided);
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
        const std::optional<KernelWork> w = kernelWork(model, ke, bwhy, assumed);
        if (w && !holdsRunTimeBranch(model, ke) && !readsBlockIndex(model, ke)) {
          fixed += *w;
          continue;
        }
        // Work that depends on the task: count each task under its loop variables.
        std::vector<CallSite> calls;
        const bool own = ke.file_index == g.file_index && ke.function_index == g.function_index;
        const int value = fn.stmts[static_cast<std::size_t>(t.stmt)].value;
        if (!own && value >= 0 && fn.exprs[static_cast<std::size_t>(value)].kind == dsl::ExprKind::Call)
          calls.push_back({g.file_index, &fn, &fn.exprs[static_cast<std::size_t>(value)], 1, {}});
        std::optional<VaryingWork> v;
        if (own || !calls.empty()) v = varyingWork(model, ke, calls, assumed);
        if (!v || !k.dispatches || v->tasks != *k.dispatches) {
          if (w) {  // the tasks' values not followed: every task as counted without them
            fixed += *w;
            continue;
          }
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
      site_gm.push_back(k.dispatches && bytes ? *k.dispatches * fixed.gmBytes() + varying_total.gmBytes() : 0);
      if (cost.gm_bytes && k.dispatches && bytes) *cost.gm_bytes += site_gm.back();
      else if (!k.dispatches) unknown(cost.gm_bytes, why);
      cost.kernels.push_back(std::move(k));
    }
    dropSmallerBranches(fn, g, first_site, undecided, site_gm, cost);
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
  // A kernel estimate's dispatch name: a split kernel's without its _aic / _aiv suffix.
  auto dispatchName = [](const sram::KernelEstimate& e) {
    return e.split ? e.kernel.substr(0, e.kernel.size() - 4) : e.kernel;
  };
  // A stage site waits for every site before it, unless orderStageSites finds what it depends on.
  auto afterEverySite = [&](KernelCost& site) {
    site.after.clear();
    for (std::size_t before = 0; before < cost.kernels.size(); ++before) site.after.push_back({static_cast<int>(before), false});
  };
  const std::size_t first_stage_site = cost.kernels.size();
  std::vector<StageCallRef> stage_calls;  // per stage site, the call making it
  for (std::size_t e = 0; e < kernels.size(); ++e) {
    const sram::KernelEstimate& ke = kernels[e];
    if (dispatched.count(static_cast<int>(e)) || ke.repeated) continue;
    const Function* stage = model.function({ke.file_index, ke.function_index});
    if (!stage || !stage->isInline()) continue;
    // The stage's calls, found once: its dispatches, its tasks' values and its sites' order follow them.
    std::string why;
    const std::vector<CallSite> call_sites = stageCallsOf(model, {ke.file_index, ke.function_index}, inRun, why,
                                                          assumed, 0);
    const std::optional<std::vector<std::int64_t>> by_call = stageDispatchesByCall(model, ke, call_sites, why, assumed);
    std::optional<std::int64_t> calls;
    if (by_call) calls = std::accumulate(by_call->begin(), by_call->end(), std::int64_t{0});
    if (!calls) {
      if (!why.empty()) {
        unknown(cost.tasks, why);
        unknown(cost.gm_bytes, why);
      }
      // Nothing of the run reaches the stage (a stage of the entry file only another entry calls):
      // not part of this run.
      dispatched.insert(static_cast<int>(e));
      continue;
    }
    dispatched.insert(static_cast<int>(e));
    // The _aic / _aiv halves of one scope are one dispatch.
    if (!stage_regions.insert({ke.file_index, ke.function_index, ke.region}).second) continue;
    KernelCost k;
    k.kernel = dispatchName(ke);
    k.dispatches = calls;
    // A `for i in pl.spmd(n)` scope of the stage: its n blocks share one submit, as in the entry.
    if (const int scope_stmt = stage->regions[static_cast<std::size_t>(ke.region)].stmt; scope_stmt >= 0)
      k.blocks = std::max<std::int64_t>(1, spmdBlocks(*stage, scope_stmt, assumed).value_or(1));
    // The halves of a split scope share its source region: its bytes are counted once.
    std::string bwhy;
    const std::optional<KernelWork> stage_work = kernelWork(model, ke, bwhy, assumed);
    std::optional<std::int64_t> bytes = stage_work ? std::optional<std::int64_t>(stage_work->gmBytes()) : std::nullopt;
    std::vector<int> halves;
    for (std::size_t h = 0; h < kernels.size(); ++h)
      if (!kernels[h].repeated && kernels[h].file_index == ke.file_index &&
          kernels[h].function_index == ke.function_index && kernels[h].region == ke.region)
        halves.push_back(static_cast<int>(h));
    k.cores = coresFor(kernels, halves, platform);
    k.core = coreKind(kernels, halves);
    k.estimates = halves;
    k.graph = graph_number++;  // a stage's dispatches follow everything dispatched before them
    afterEverySite(k);
    if (stage_work) k.work_per_task = *stage_work;
    if (cost.tasks) *cost.tasks += *calls;
    std::optional<std::int64_t> all = bytes ? std::optional<std::int64_t>(*calls * *bytes) : std::nullopt;
    if (!bytes || holdsRunTimeBranch(model, ke) || readsBlockIndex(model, ke)) {
      // Bytes that depend on the task: count each task under the values the run calls the stage with.
      if (std::optional<VaryingWork> v = varyingWork(model, ke, call_sites, assumed); v && v->tasks == *calls) {
        all = v->total.gmBytes();
        bytes = v->largest;
        std::size_t top = 0;
        for (std::size_t i = 1; i < v->each.size(); ++i)
          if (v->each[i].gmBytes() > v->each[top].gmBytes()) top = i;
        if (!v->each.empty()) k.work_per_task = v->each[top];
        else k.work_per_task = KernelWork{};  // never dispatched (a branch the run does not take)
        k.task_work = std::move(v->each);
      }
    }
    if (!all) unknown(cost.gm_bytes, bwhy);
    else if (cost.gm_bytes) *cost.gm_bytes += *all;
    k.gm_bytes_per_task = bytes;
    auto callRef = [&](std::size_t c) {
      if (call_sites.size() != by_call->size()) return StageCallRef{};
      return StageCallRef{call_sites[c].caller, call_sites[c].call, stage,
                          stage->regions[static_cast<std::size_t>(ke.region)].stmt};
    };
    if (by_call->size() > 1 && k.task_work.empty()) {
      // Called more than once, every task alike: one site per call, in call order (orderStageSites
      // decides which earlier calls each one waits for), under the name the compiler gives that splice.
      std::vector<std::string> splices{k.kernel};  // the estimator's instances of the region, in splice order
      for (const sram::KernelEstimate& other : kernels)
        if (other.repeated && other.file_index == ke.file_index && other.function_index == ke.function_index &&
            other.region == ke.region && std::find(splices.begin(), splices.end(), dispatchName(other)) == splices.end())
          splices.push_back(dispatchName(other));
      for (std::size_t c = 0; c < by_call->size(); ++c) {
        KernelCost one = k;
        one.dispatches = (*by_call)[c];
        if (splices.size() == by_call->size()) one.kernel = splices[c];
        one.graph = c == 0 ? k.graph : graph_number++;
        afterEverySite(one);
        cost.kernels.push_back(std::move(one));
        stage_calls.push_back(callRef(c));
      }
      continue;
    }
    cost.kernels.push_back(std::move(k));
    stage_calls.push_back(by_call->size() == 1 ? callRef(0) : StageCallRef{});
  }
  orderStageSites(model, cost.kernels, first_stage_site, stage_calls);
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

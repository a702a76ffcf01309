#include "cost/schedule_cost.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "advice/core_count.h"

namespace portcheck::cost {

namespace {

using dsl::Expr;
using dsl::Function;
using dsl::Value;

// Ops whose result is a view of their operand: a view of a GM tensor in incore code is the load of
// the viewed region.
bool isViewOp(std::string_view op) {
  return op == "reshape" || op == "slice" || op == "view" || op == "reinterpret_view" || op == "transpose_view";
}

// The bytes of `tile`'s elements in `gm`'s element type (what a load or store of it moves).
std::optional<std::int64_t> movedBytes(const dsl::TypeInfo& tile, const Value* gm) {
  dsl::TypeInfo moved = tile;
  if (gm && gm->type.dtype != dsl::DType::Unknown) moved.dtype = gm->type.dtype;
  return moved.bytes();
}

std::string where(const dsl::FileModel& file, const Function& fn, int stmt) {
  return file.path + ":" + std::to_string(fn.stmts[static_cast<std::size_t>(stmt)].loc.line);
}

// Values of index names in one task: the loop variables around its dispatch, and through them the
// scalar parameters a kernel or stage is called with ("qb" -> 3).
using Env = std::map<std::string, std::int64_t>;

// An index expression's value under `env`: integer literals and constants, names bound in `env`, and
// + - * // % of those; nullopt otherwise.
std::optional<std::int64_t> evalIndex(const Function& fn, int expr, const Env& env, int depth = 0) {
  if (expr < 0 || depth > 32) return std::nullopt;
  const Expr& e = fn.exprs[static_cast<std::size_t>(expr)];
  if (e.kind == dsl::ExprKind::Name)
    if (auto it = env.find(e.name); it != env.end()) return it->second;
  if (e.number.isInt()) return e.number.i;
  if (e.kind == dsl::ExprKind::BinOp && e.children.size() == 2) {
    std::optional<std::int64_t> a = evalIndex(fn, e.children[0], env, depth + 1);
    std::optional<std::int64_t> b = evalIndex(fn, e.children[1], env, depth + 1);
    if (!a || !b) return std::nullopt;
    if (e.name == "+") return *a + *b;
    if (e.name == "-") return *a - *b;
    if (e.name == "*") return *a * *b;
    if ((e.name == "//" || e.name == "%") && *b != 0) {
      std::int64_t q = *a / *b;
      if ((*a % *b != 0) && ((*a < 0) != (*b < 0))) --q;  // Python's floor division
      return e.name == "//" ? q : *a - q * *b;
    }
  }
  return std::nullopt;
}

// A loop's range: its first value, its step and its trip count.
struct Range {
  std::int64_t start = 0, step = 1, trips = 0;
};

// The range of loop statement `l`: its static bounds, else its bounds evaluated under `env`.
std::optional<Range> rangeOf(const Function& fn, int l, const Env& env) {
  const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(l)];
  if (st.loop < 0) return std::nullopt;
  const dsl::Loop& loop = fn.loops[static_cast<std::size_t>(st.loop)];
  if (loop.trip_count && loop.start.isInt() && loop.step.isInt()) return Range{loop.start.i, loop.step.i, *loop.trip_count};
  if (st.value < 0 || loop.iter == dsl::LoopIter::PlWhile || loop.iter == dsl::LoopIter::PythonWhile) return std::nullopt;
  const Expr& it = fn.exprs[static_cast<std::size_t>(st.value)];
  if (it.kind != dsl::ExprKind::Call || it.args.empty() || it.args.size() > 3) return std::nullopt;
  std::optional<std::int64_t> start = it.args.size() >= 2 ? evalIndex(fn, it.args[0], env) : std::optional<std::int64_t>(0);
  std::optional<std::int64_t> stop = evalIndex(fn, it.args.size() >= 2 ? it.args[1] : it.args[0], env);
  std::optional<std::int64_t> step = it.args.size() == 3 ? evalIndex(fn, it.args[2], env) : std::optional<std::int64_t>(1);
  if (!start || !stop || !step || *step <= 0) return std::nullopt;
  return Range{*start, *step, *stop > *start ? (*stop - *start + *step - 1) / *step : 0};
}

// The trip count of loop statement `l`: its static one, else its range's bounds evaluated under `env`.
std::optional<std::int64_t> tripCount(const Function& fn, int l, const Env& env) {
  const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(l)];
  if (st.loop >= 0)
    if (const std::optional<std::int64_t> n = fn.loops[static_cast<std::size_t>(st.loop)].trip_count) return n;
  if (env.empty()) return std::nullopt;
  const std::optional<Range> r = rangeOf(fn, l, env);
  return r ? std::optional<std::int64_t>(r->trips) : std::nullopt;
}

// The product of the trip counts of the loops around `stmt`, innermost first, stopping at (not
// counting) loop statement `stop` or at a loop outside `[first, ...)`; nullopt when one is not static
// (nor known under `env`).
std::optional<std::int64_t> tripsAround(const dsl::FileModel& file, const Function& fn, int stmt, int first,
                                        int stop, std::string& why, const Env& env = {}) {
  std::int64_t trips = 1;
  for (int l = fn.stmts[static_cast<std::size_t>(stmt)].enclosing_loop; l >= 0 && l >= first && l != stop;
       l = fn.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
    const std::optional<std::int64_t> n = tripCount(fn, l, env);
    if (!n) {
      why = "trip count of the loop at " + where(file, fn, l);
      return std::nullopt;
    }
    trips *= *n;
  }
  return trips;
}

constexpr std::size_t kTaskLimit = 1 << 16;
std::vector<Env> loopEnvs(const Function& fn, int stmt, const Env& base, std::size_t limit);

// The trips of all loops around `stmt` in its function: the product of their static trip counts, else,
// when a loop's bounds are an outer loop's variable (`pl.parallel(h * 2, h * 2 + 2)`), the number of
// assignments of their variables; nullopt with `why` when neither is known.
std::optional<std::int64_t> runsAround(const dsl::FileModel& file, const Function& fn, int stmt, std::string& why) {
  if (std::optional<std::int64_t> trips = tripsAround(file, fn, stmt, 0, -1, why)) return trips;
  const std::vector<Env> envs = loopEnvs(fn, stmt, {}, kTaskLimit);
  if (envs.empty()) return std::nullopt;
  why.clear();
  return static_cast<std::int64_t>(envs.size());
}

// The dispatches of the dispatching statement `stmt` per run of its function: once per trip of every loop
// around it, and a `for i in pl.spmd(n)` body once per block too (its own loop counts); nullopt with
// `why` when a count is not static.
std::optional<std::int64_t> dispatchesAt(const dsl::FileModel& file, const Function& fn, int stmt, std::string& why) {
  const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(stmt)];
  std::optional<std::int64_t> own = 1;
  if (st.loop >= 0 && fn.loops[static_cast<std::size_t>(st.loop)].iter == dsl::LoopIter::PlSpmd)
    own = fn.loops[static_cast<std::size_t>(st.loop)].trip_count;
  if (!own) {
    why = "block count of the pl.spmd at " + where(file, fn, stmt);
    return std::nullopt;
  }
  std::optional<std::int64_t> trips = runsAround(file, fn, stmt, why);
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
                                            const InRun& inRun, std::string& why) {
  const Function* stage = model.function({kernel.file_index, kernel.function_index});
  if (!stage || kernel.region < 0 || static_cast<std::size_t>(kernel.region) >= stage->regions.size()) return std::nullopt;
  const dsl::FileModel& stage_file = model.files[static_cast<std::size_t>(kernel.file_index)];
  const int scope = stage->regions[static_cast<std::size_t>(kernel.region)].stmt;
  if (scope < 0) return std::nullopt;
  std::optional<std::int64_t> inside = dispatchesAt(stage_file, *stage, scope, why);
  if (!inside) return std::nullopt;
  const std::vector<CallSite> sites = stageCalls(model, kernel, inRun);
  if (sites.empty()) return std::nullopt;
  std::int64_t calls = 0;
  for (const CallSite& site : sites) {
    std::optional<std::int64_t> around =
        runsAround(model.files[static_cast<std::size_t>(site.file)], *site.caller, site.call->stmt, why);
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

std::optional<std::int64_t> kernelGmBytesIn(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                            std::string& why, const Env& env);

// Every assignment of the loop variables of the loops around `stmt` in `fn` (outermost first), each
// extended from `base`; empty when a loop around it has no static trip count or more than `limit`
// assignments would result.
std::vector<Env> loopEnvs(const Function& fn, int stmt, const Env& base, std::size_t limit) {
  std::vector<int> loops;
  for (int l = fn.stmts[static_cast<std::size_t>(stmt)].enclosing_loop; l >= 0;
       l = fn.stmts[static_cast<std::size_t>(l)].enclosing_loop)
    loops.insert(loops.begin(), l);
  std::vector<Env> envs{base};
  for (int l : loops) {
    const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(l)];
    if (st.loop < 0) return {};
    const dsl::Loop& loop = fn.loops[static_cast<std::size_t>(st.loop)];
    std::vector<Env> next;
    for (const Env& env : envs) {
      const std::optional<Range> r = rangeOf(fn, l, env);
      if (!r || loop.targets.size() != 1) return {};
      for (std::int64_t i = 0; i < r->trips; ++i) {
        if (next.size() >= limit) return {};
        Env e = env;
        e[loop.targets[0]] = r->start + i * r->step;
        next.push_back(std::move(e));
      }
    }
    envs = std::move(next);
  }
  return envs;
}

// A function's scalar parameters bound to the values `call` passes them under `caller_env`.
Env bindParams(const Function& caller, const Expr& call, const Function& callee, const Env& caller_env) {
  Env env;
  std::size_t pos = 0;
  for (const dsl::Param& p : callee.params) {
    if (p.is_self) continue;
    if (std::optional<std::int64_t> v = evalIndex(caller, caller.arg(call, pos, p.name), caller_env)) env[p.name] = *v;
    ++pos;
  }
  return env;
}

// The bytes a kernel moves when they differ from task to task (a loop in it whose trip count is a
// loop variable of the orchestration, or a scalar the task is called with): summed over every task of
// the run, and the largest task's. Each task's values come from `calls`: the call sites whose callee
// holds the kernel (none: the kernel's region sits in the dispatching function
// itself, under its loops).
struct VaryingBytes {
  std::int64_t total = 0, largest = 0, tasks = 0;
};

std::optional<VaryingBytes> varyingBytes(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                         const std::vector<CallSite>& calls) {
  const Function* fn = model.function({kernel.file_index, kernel.function_index});
  if (!fn || kernel.region < 0) return std::nullopt;
  const int scope = fn->regions[static_cast<std::size_t>(kernel.region)].stmt;
  std::vector<Env> bases;
  if (calls.empty()) {
    bases.push_back({});
  } else {
    for (const CallSite& site : calls) {
      if (site.call->stmt < 0) return std::nullopt;
      for (const Env& e : loopEnvs(*site.caller, site.call->stmt, {}, kTaskLimit))
        bases.push_back(bindParams(*site.caller, *site.call, *fn, e));
      if (bases.empty()) return std::nullopt;
    }
  }
  VaryingBytes v;
  for (const Env& base : bases) {
    // The loops of the kernel's own function around its scope dispatch it too (an InCore function: none).
    std::vector<Env> envs = scope >= 0 ? loopEnvs(*fn, scope, base, kTaskLimit) : std::vector<Env>{base};
    if (envs.empty()) return std::nullopt;
    for (const Env& env : envs) {
      std::string why;
      std::optional<std::int64_t> b = kernelGmBytesIn(model, kernel, why, env);
      if (!b || ++v.tasks > static_cast<std::int64_t>(kTaskLimit)) return std::nullopt;
      v.total += *b;
      v.largest = std::max(v.largest, *b);
    }
  }
  return v;
}

std::optional<std::int64_t> kernelGmBytesIn(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                            std::string& why, const Env& env) {
  const Function* fn = model.function({kernel.file_index, kernel.function_index});
  if (!fn || kernel.region < 0 || static_cast<std::size_t>(kernel.region) >= fn->regions.size()) {
    why = "kernel " + kernel.kernel + ": no source region";
    return std::nullopt;
  }
  const dsl::FileModel& file = model.files[static_cast<std::size_t>(kernel.file_index)];
  const dsl::IncoreRegion& region = fn->regions[static_cast<std::size_t>(kernel.region)];
  // Loops counted: those inside the region (an spmd for-form's own loop dispatches, it is not counted).
  const int first = region.stmt >= 0 ? region.stmt : 0;
  const int stop = region.stmt;
  std::int64_t total = 0;
  auto add = [&](int stmt, std::optional<std::int64_t> bytes, const std::string& what) {
    if (!bytes) {
      why = "size of " + what + " at " + where(file, *fn, stmt);
      return false;
    }
    std::optional<std::int64_t> trips = tripsAround(file, *fn, stmt, first, stop, why, env);
    if (!trips) return false;
    total += *bytes * *trips;
    return true;
  };
  for (int c : fn->calls) {
    const Expr& call = fn->exprs[static_cast<std::size_t>(c)];
    if (call.stmt < region.first || call.stmt >= region.last || call.pl_name.empty()) continue;
    const std::string_view op = call.opName();
    const Value* result = call.value >= 0 ? &fn->values[static_cast<std::size_t>(call.value)] : nullptr;
    bool ok = true;
    if (op == "load" && result && !call.args.empty()) {
      ok = add(call.stmt, movedBytes(result->type, fn->valueOf(call.args[0])), "the loaded tile");
    } else if (op == "store" && !call.args.empty()) {
      const Value* tile = fn->valueOf(call.args[0]);
      const int out = call.args.size() >= 3 ? call.args[2] : fn->arg(call, 99, "output_tensor");
      ok = tile ? add(call.stmt, movedBytes(tile->type, fn->valueOf(out)), "the stored tile") : true;
    } else if (op == "assemble" && call.args.size() >= 2 && fn->valueOf(call.args[0]) &&
               !fn->valueOf(call.args[0])->on_chip) {
      // Assembling into a GM tensor stores the assembled tile at its offset.
      const Value* part = fn->valueOf(call.args[1]);
      ok = part ? add(call.stmt, movedBytes(part->type, fn->valueOf(call.args[0])), "the assembled tile") : true;
    } else if (result && result->on_chip && result->type.kind == dsl::ValueKind::Tensor && op != "create" &&
               op != "full" && op != "create_tile" && op != "create_tensor") {
      // Tensor-level compute on chip: each GM tensor operand is loaded first (a view: the viewed region).
      if (isViewOp(op)) {
        const Value* src = call.args.empty() ? nullptr : fn->valueOf(call.args[0]);
        if (src && !src->on_chip) ok = add(call.stmt, result->type.bytes(), "the viewed region");
      } else {
        for (int a : call.args) {
          const Value* v = fn->valueOf(a);
          if (!v || v->on_chip || v->type.kind != dsl::ValueKind::Tensor) continue;
          if (!(ok = add(call.stmt, v->type.bytes(), "the implicitly loaded tensor"))) break;
        }
      }
    }
    if (!ok) return std::nullopt;
  }
  // Subscript sugar on a GM tensor (`x[0:M, k0:k0 + K]` read, `y[0:M, d0:d0 + D] = acc` written) is a
  // load or store of the subscripted region.
  for (const dsl::SubscriptAccess& sa : fn->subscripts) {
    if (sa.stmt < region.first || sa.stmt >= region.last || sa.base_value < 0 || sa.expr < 0) continue;
    const Value& base = fn->values[static_cast<std::size_t>(sa.base_value)];
    if (base.type.kind != dsl::ValueKind::Tensor || base.on_chip) continue;
    const Value* accessed = fn->valueOf(sa.expr);
    if (!add(sa.stmt, accessed ? movedBytes(accessed->type, &base) : std::nullopt,
             sa.write ? "the written region" : "the read region"))
      return std::nullopt;
  }
  return total;
}

}  // namespace

std::optional<std::int64_t> kernelGmBytes(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                          std::string& why) {
  return kernelGmBytesIn(model, kernel, why, {});
}

ScheduleCost scheduleCost(const dsl::ProgramModel& model, const std::vector<sram::KernelEstimate>& kernels,
                          Platform platform, const std::vector<std::string>& entry_files) {
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
  for (const advice::TaskGraph& g : advice::buildTaskGraphs(model, kernels)) {
    if (!inRun(g.file_index)) continue;
    const dsl::FileModel& file = model.files[static_cast<std::size_t>(g.file_index)];
    const Function& fn = file.functions[static_cast<std::size_t>(g.function_index)];
    for (const advice::Task& t : g.tasks) {
      KernelCost k;
      k.kernel = t.kernel;
      std::string why;
      k.dispatches = dispatchesAt(file, fn, t.stmt, why);
      if (!k.dispatches) unknown(cost.tasks, why);
      // One dispatch runs both halves of a split kernel.
      bool known = true;
      std::int64_t fixed = 0;                           // per task, the regions every task moves alike
      std::int64_t varying_total = 0, varying_max = 0;  // the regions whose bytes differ per task
      std::set<std::tuple<int, int, int>> regions;  // the _aic / _aiv halves and repeated instances share one
      for (int e : t.estimates) {
        dispatched.insert(e);
        const sram::KernelEstimate& ke = kernels[static_cast<std::size_t>(e)];
        if (!regions.insert({ke.file_index, ke.function_index, ke.region}).second) continue;
        std::string bwhy;
        if (std::optional<std::int64_t> b = kernelGmBytes(model, ke, bwhy)) {
          fixed += *b;
          continue;
        }
        // Bytes that depend on the task: count each task under its loop variables.
        std::vector<CallSite> calls;
        const bool own = ke.file_index == g.file_index && ke.function_index == g.function_index;
        const int value = fn.stmts[static_cast<std::size_t>(t.stmt)].value;
        if (!own && value >= 0 && fn.exprs[static_cast<std::size_t>(value)].kind == dsl::ExprKind::Call)
          calls.push_back({g.file_index, &fn, &fn.exprs[static_cast<std::size_t>(value)]});
        std::optional<VaryingBytes> v;
        if (own || !calls.empty()) v = varyingBytes(model, ke, calls);
        if (!v || !k.dispatches || v->tasks != *k.dispatches) {
          known = false;
          unknown(cost.gm_bytes, bwhy);
          break;
        }
        varying_total += v->total;
        varying_max += v->largest;
      }
      std::optional<std::int64_t> bytes;  // per task (the largest task's when they differ)
      if (known) bytes = fixed + varying_max;
      k.gm_bytes_per_task = bytes;
      k.cores = coresFor(kernels, t.estimates, platform);
      if (cost.tasks && k.dispatches) *cost.tasks += *k.dispatches;
      if (cost.gm_bytes && k.dispatches && bytes) *cost.gm_bytes += *k.dispatches * fixed + varying_total;
      else if (!k.dispatches) unknown(cost.gm_bytes, why);
      cost.kernels.push_back(std::move(k));
    }
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
    std::optional<std::int64_t> calls = stageDispatches(model, ke, inRun, why);
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
    if (cost.tasks) *cost.tasks += *calls;
    std::optional<std::int64_t> all = bytes ? std::optional<std::int64_t>(*calls * *bytes) : std::nullopt;
    if (!bytes) {
      // Bytes that depend on the task: count each task under the values the run calls the stage with.
      if (std::optional<VaryingBytes> v = varyingBytes(model, ke, stageCalls(model, ke, inRun)); v && v->tasks == *calls) {
        all = v->total;
        bytes = v->largest;
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

// Pass 5 of the model builder: the names the compiler gives the kernels it outlines. OutlineIncoreScopes
// (and the spmd outliner) run after the JIT has spliced every inline function into its caller, so the
// scopes of an inline function are named as scopes of the function that inlines it, in that
// function's statement order: a name taken in the same function takes the next numeric suffix
// (`proj`, `proj_0`, `proj_1`, ...) whichever inline function the scope came from; a name another
// function of the program took is prefixed with this function's (`layer_proj`).
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "dsl/model_builder.h"

namespace portcheck::dsl::detail {

namespace {

// A statement in the branch of an `if` whose condition is a compile-time constant that does not take
// it (`if CAP == 256:` with CAP 2048): the parser folds the branch away, so its scopes are no kernels.
bool foldedAwayStmt(const Function& fn, int stmt) {
  for (int child = stmt, s = stmt >= 0 ? fn.stmts[static_cast<std::size_t>(stmt)].parent : -1; s >= 0;
       child = s, s = fn.stmts[static_cast<std::size_t>(s)].parent) {
    const Stmt& st = fn.stmts[static_cast<std::size_t>(s)];
    if (st.kind != StmtKind::If || st.value < 0) continue;
    const Number& c = fn.exprs[static_cast<std::size_t>(st.value)].number;
    if (!c.known()) continue;
    const bool in_else = fn.stmts[static_cast<std::size_t>(child)].kind == StmtKind::Else;
    if ((c.asDouble() != 0) == in_else) return true;
  }
  return false;
}

// The most names one program is given (a guard against unrolled loops of absurd trip counts).
constexpr int kMaxNames = 4096;

// The pl.unroll loops with a static trip count above 1 around `stmt` in its function, outermost first:
// each copies the statement (an unknown count copies nothing the model can name).
std::vector<int> unrollChain(const Function& fn, int stmt) {
  std::vector<int> chain;
  for (int l = stmt >= 0 ? fn.stmts[static_cast<std::size_t>(stmt)].enclosing_loop : -1; l >= 0;
       l = fn.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
    const Stmt& s = fn.stmts[static_cast<std::size_t>(l)];
    if (s.loop < 0) continue;
    const Loop& loop = fn.loops[static_cast<std::size_t>(s.loop)];
    if (loop.iter == LoopIter::PlUnroll && loop.trip_count && *loop.trip_count > 1) chain.push_back(l);
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

// One ScopeOutliner: the names of one function of the program (`host`), its own scopes and those of
// the inline functions spliced into it, in statement order.
class HostNamer {
 public:
  // `follow_calls` false: the host's own scopes only (an inline function named as if it were a host).
  HostNamer(Unit& unit, const Function& host, std::unordered_set<std::string>& reserved, bool follow_calls)
      : unit_(unit), host_(host), reserved_(reserved), follow_calls_(follow_calls) {
    for (const Param& p : host.params)
      if (!p.is_self) local_.insert(p.name);
  }

  // Names the regions of `body` (the host itself, or an inline function spliced into it) and, in
  // statement order with them, the inline functions it calls. `own` is true for the host's body.
  void walk(Function& body, bool own, int depth) {
    if (depth > 16 || produced_ > kMaxNames) return;
    struct Item {
      int stmt;
      int region;  // index into body.regions, or -1 for a call
      int call;    // Expr index of the call
    };
    std::vector<Item> items;
    for (std::size_t ri = 0; ri < body.regions.size(); ++ri) {
      const IncoreRegion& r = body.regions[ri];
      if (r.kind == RegionKind::IncoreFunction || foldedAwayStmt(body, r.stmt)) continue;  // no kernel, no name
      items.push_back({r.stmt, static_cast<int>(ri), -1});
    }
    for (int c : body.calls) {
      const Expr& call = body.exprs[static_cast<std::size_t>(c)];
      if (call.stmt < 0 || foldedAwayStmt(body, call.stmt) || insideRegion(body, call.stmt)) continue;
      const Function* callee = follow_calls_ ? functionAt(call.callee_file, call.callee_function) : nullptr;
      if (!callee || !callee->isInline() || callee->untaken) continue;
      items.push_back({call.stmt, -1, c});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.stmt < b.stmt; });
    // pl.unroll copies its body before the outliner runs: the items of an unrolled loop are named once per
    // copy, copy after copy, in statement order within each (A, B, A_0, B_0, ...).
    std::vector<std::vector<int>> chains;  // per item: its pl.unroll loop statements, outermost first
    for (const Item& item : items) chains.push_back(unrollChain(body, item.stmt));
    auto handle = [&](const Item& item) {
      if (item.region >= 0) {
        IncoreRegion& r = body.regions[static_cast<std::size_t>(item.region)];
        std::string name = nameOf(body, own, item.region);
        if (name.empty()) return;
        last_name_[{&body, item.region}] = name;
        if (own && r.kernel_name.empty()) r.kernel_name = name;
        else r.instance_names.push_back(name);
        return;
      }
      const Expr& call = body.exprs[static_cast<std::size_t>(item.call)];
      Function* callee = functionAt(call.callee_file, call.callee_function);
      if (!callee || on_path_.count(callee)) return;
      on_path_.insert(callee);
      walk(*callee, false, depth + 1);
      on_path_.erase(callee);
    };
    std::function<void(std::size_t, std::size_t, std::size_t)> emit = [&](std::size_t begin, std::size_t end,
                                                                         std::size_t level) {
      for (std::size_t i = begin; i < end;) {
        if (chains[i].size() <= level) {
          handle(items[i++]);
          continue;
        }
        const int loop = chains[i][level];
        std::size_t j = i;
        while (j < end && chains[j].size() > level && chains[j][level] == loop) ++j;
        const std::int64_t copies = *body.loops[static_cast<std::size_t>(body.stmts[static_cast<std::size_t>(loop)].loop)].trip_count;
        for (std::int64_t c = 0; c < copies && produced_ <= kMaxNames; ++c) emit(i, j, level + 1);
        i = j;
      }
    };
    if (own)
      for (const Item& item : items)
        if (item.region >= 0) body.regions[static_cast<std::size_t>(item.region)].kernel_name.clear();
    emit(0, items.size(), 0);
  }

 private:
  Function* functionAt(int file, int function) {
    if (file < 0 || function < 0 || static_cast<std::size_t>(file) >= unit_.files.size()) return nullptr;
    std::vector<Function>& fns = unit_.files[static_cast<std::size_t>(file)].functions;
    return static_cast<std::size_t>(function) < fns.size() ? &fns[static_cast<std::size_t>(function)] : nullptr;
  }

  // A call inside a kernel's body: its code is part of that kernel (no scope of its own to name).
  static bool insideRegion(const Function& body, int stmt) {
    for (const IncoreRegion& r : body.regions)
      if (r.kind != RegionKind::IncoreFunction && stmt > r.stmt && stmt < r.last) return true;
    return false;
  }

  bool taken(const std::string& n) const { return local_.count(n) > 0 || reserved_.count(n) > 0; }

  std::string numeric(const std::string& base) const {
    for (int k = 0;; ++k) {
      std::string candidate = base + "_" + std::to_string(k);
      if (!taken(candidate)) return candidate;
    }
  }

  // The name of region `ri` of `body` as the host's outliner gives it; empty when the compiler's name
  // cannot be predicted.
  std::string nameOf(const Function& body, bool own, int ri) {
    const IncoreRegion& r = body.regions[static_cast<std::size_t>(ri)];
    const Scope* scope = r.scope >= 0 ? &body.scopes[static_cast<std::size_t>(r.scope)] : nullptr;
    std::string candidate;
    // Every InCore scope takes the next k of its enclosing scope's counter, named or not (pypto's
    // ScopeOutliner::OutlineScope); a `for i in pl.spmd(n)` body is one (the for-form wraps its body in
    // an InCore scope), so it counts too. A scope nested in another pl.at scope is named after that
    // scope's kernel; a top-level one (an inline function's included: it is spliced at the host's top
    // level) after the host.
    int owner = -1;
    for (int q = 0; q < ri; ++q) {
      const IncoreRegion& o = body.regions[static_cast<std::size_t>(q)];
      if (o.kind == RegionKind::AtScope && r.stmt > o.stmt && r.stmt < o.last) owner = q;
    }
    std::string prefix = host_.name;
    if (owner >= 0) {
      // The owner's latest name: each splice or unrolled copy of it is a kernel of its own, whose
      // nested scopes count from 0.
      const auto it = last_name_.find({&body, owner});
      prefix = it == last_name_.end() ? std::string() : it->second;
    }
    const int k = owner < 0 ? top_counter_++ : nested_counters_[prefix]++;
    if (r.kind == RegionKind::SpmdBody) {
      // The parser splits an spmd hint into the Spmd wrapper `<x>_spmd` and the kernel `<x>`
      // (pypto's _split_spmd_for_loop_name_hints): a hint ending in `_spmd` names the wrapper.
      std::string hint = scope && scope->has_name_hint ? scope->name_hint : r.spmd_name_hint;
      constexpr std::string_view kSpmd = "_spmd";
      if (hint.size() > kSpmd.size() && hint.compare(hint.size() - kSpmd.size(), kSpmd.size(), kSpmd) == 0)
        hint.resize(hint.size() - kSpmd.size());
      // Without a hint the body's InCore scope is named like an unnamed pl.at scope.
      if (hint.empty() && prefix.empty()) return {};
      candidate = hint.empty() ? prefix + "_incore_" + std::to_string(k) : hint;
    } else {
      const bool hinted = scope && scope->has_name_hint && !scope->name_hint.empty();
      if (!hinted && prefix.empty()) return {};
      candidate = hinted ? scope->name_hint : prefix + "_incore_" + std::to_string(k);
    }
    if (candidate.empty()) return {};
    // The outliner keeps kernel names unique in the program: a name a function or an earlier kernel
    // of another function has is prefixed with the host's (an entry `proj` with an spmd hint "proj":
    // `proj_proj`); one this function already gave takes a numeric suffix. An spmd kernel's name may
    // be a parameter's (deepseek_v4's `weights_proj` spmd reading the `weights_proj` parameter keeps it).
    const bool spmd = r.kind == RegionKind::SpmdBody;
    std::string name;
    if (spmd ? !reserved_.count(candidate) : !taken(candidate)) name = candidate;
    else if (!local_.count(candidate)) {
      std::string spaced = host_.name + "_" + candidate;
      name = taken(spaced) ? numeric(spaced) : spaced;
    } else {
      name = numeric(candidate);
    }
    local_.insert(name);
    reserved_.insert(name);
    ++produced_;
    return name;
  }

  Unit& unit_;
  const Function& host_;
  std::unordered_set<std::string>& reserved_;
  bool follow_calls_;
  std::unordered_set<std::string> local_;  // after ConvertToSSA only the parameters keep their names
  int top_counter_ = 0;                                  // the host's top-level InCore scopes: next k
  std::map<std::string, int> nested_counters_;           // a kernel's nested scopes: next k, by its name
  std::map<std::pair<const Function*, int>, std::string> last_name_;  // a region's latest name
  std::set<const Function*> on_path_;
  int produced_ = 0;
};

}  // namespace

void nameKernels(Unit& unit) {
  // OutlineIncoreScopes: program-wide reserved names start as every function name. Inline functions
  // are spliced into their callers first and plain helpers are not DSL, so neither is a function of
  // the compiled program.
  std::unordered_set<std::string> reserved;
  for (const FileModel& f : unit.files)
    for (const Function& fn : f.functions)
      if (fn.isDsl() && !fn.isInline() && !fn.untaken) reserved.insert(fn.name);
  for (FileModel& f : unit.files)
    for (Function& fn : f.functions)
      for (IncoreRegion& r : fn.regions) r.instance_names.clear();
  // Every function of the program with its splices, in file order.
  for (FileModel& f : unit.files)
    for (Function& fn : f.functions) {
      if (fn.isInline()) continue;
      // A plain Python function splices nothing; an incore function's calls are inside its one kernel.
      HostNamer host(unit, fn, reserved, fn.isDsl() && !fn.isIncoreFunction());
      host.walk(fn, true, 0);
    }
  // An inline function's kernels are named as the first function splicing it names them; one no
  // function of the unit calls (a helper module linted alone) is named after its hint, as if it were
  // its own host (an unhinted scope's name depends on the unknown caller: none).
  for (FileModel& f : unit.files)
    for (Function& fn : f.functions) {
      if (!fn.isInline()) continue;
      bool spliced = false;
      for (const IncoreRegion& r : fn.regions) spliced = spliced || !r.instance_names.empty();
      if (spliced) {
        for (IncoreRegion& r : fn.regions) r.kernel_name = r.instance_names.empty() ? std::string() : r.instance_names[0];
        continue;
      }
      HostNamer alone(unit, fn, reserved, false);
      alone.walk(fn, true, 0);
      for (IncoreRegion& r : fn.regions) {
        const Scope* scope = r.scope >= 0 ? &fn.scopes[static_cast<std::size_t>(r.scope)] : nullptr;
        const bool hinted = (scope && scope->has_name_hint && !scope->name_hint.empty()) || !r.spmd_name_hint.empty();
        if (!hinted) r.kernel_name.clear();  // named after the unknown caller
      }
    }
}

}  // namespace portcheck::dsl::detail

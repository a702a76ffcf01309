#include "cost/trip_counts.h"

#include <algorithm>

#include "dsl/const_eval.h"

namespace portcheck::cost {

using dsl::Expr;
using dsl::Function;

std::string where(const dsl::FileModel& file, const Function& fn, int stmt) {
  return file.path + ":" + std::to_string(fn.stmts[static_cast<std::size_t>(stmt)].loc.line);
}


namespace {

// The expression naming dimension `k` of tensor `t` when the annotation of the parameter it is leaves it
// dynamic (`x: pl.Tensor[[T_DYN, D], ...]`, or `x.bind_dynamic(0, T_DYN)` in the body); -1 otherwise.
int tripDynamicDimExpr(const Function& fn, const dsl::Value& t, std::int64_t k) {
  if (t.param < 0 || static_cast<std::size_t>(t.param) >= fn.params.size() || k < 0) return -1;
  const dsl::Param& p = fn.params[static_cast<std::size_t>(t.param)];
  // x.bind_dynamic(k, VAR) in the body.
  for (const Expr& c : fn.exprs) {
    if (c.kind != dsl::ExprKind::Call || c.args.size() != 2 || c.name != p.name + ".bind_dynamic") continue;
    const Expr& kk = fn.exprs[static_cast<std::size_t>(c.args[0])];
    if (kk.number.isInt() && kk.number.i == k) return c.args[1];
  }
  // The annotation's shape list, through pl.Out[...] / pl.InOut[...].
  int a = p.annotation;
  for (int guard = 0; a >= 0 && guard < 4; ++guard) {
    const Expr& x = fn.exprs[static_cast<std::size_t>(a)];
    if (x.kind != dsl::ExprKind::Subscript || x.children.size() < 2) return -1;
    const std::string& base = fn.exprs[static_cast<std::size_t>(x.children[0])].pl_name;
    if (base == "Out" || base == "InOut") {
      a = x.children[1];
      continue;
    }
    if (base != "Tensor" && base != "Tile") return -1;
    const Expr& list = fn.exprs[static_cast<std::size_t>(x.children[1])];
    if (static_cast<std::size_t>(k) >= list.children.size()) return -1;
    return list.children[static_cast<std::size_t>(k)];
  }
  return -1;
}

// The number of assignments of the variables of the loops around `stmt` from (not counting) `stop` or
// the first loop outside `[first, ...)` inward, each loop's range under the outer ones' values; nullopt
// when a range is not known even so or past kTaskLimit assignments.
std::optional<std::int64_t> loopAssignments(const Function& fn, int stmt, int first, int stop, const Env& env) {
  std::vector<int> loops;  // outermost first
  for (int l = fn.stmts[static_cast<std::size_t>(stmt)].enclosing_loop; l >= 0 && l >= first && l != stop;
       l = fn.stmts[static_cast<std::size_t>(l)].enclosing_loop)
    loops.insert(loops.begin(), l);
  std::vector<Env> envs{env};
  for (std::size_t i = 0; i < loops.size(); ++i) {
    const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(loops[i])];
    if (st.loop < 0) return std::nullopt;
    const dsl::Loop& loop = fn.loops[static_cast<std::size_t>(st.loop)];
    const bool last = i + 1 == loops.size();
    std::vector<Env> next;
    std::int64_t count = 0;
    for (const Env& e : envs) {
      const std::optional<Range> r = rangeOf(fn, loops[i], e);
      if (!r) return std::nullopt;
      if (last) {  // the innermost loop's trips only count
        count += r->trips;
        continue;
      }
      if (loop.targets.size() != 1) return std::nullopt;
      for (std::int64_t k = 0; k < r->trips; ++k) {
        if (next.size() >= kTaskLimit) return std::nullopt;
        Env b = e;
        b[loop.targets[0]] = r->start + k * r->step;
        next.push_back(std::move(b));
      }
    }
    if (last) return count;
    envs = std::move(next);
  }
  return static_cast<std::int64_t>(envs.size());
}

}  // namespace

// Two expressions written alike (the same names, numbers and operators).
bool sameIndexExpr(const Function& fn, int a, int b, int depth) {
  if (a < 0 || b < 0 || depth > 16) return a == b;
  const Expr& x = fn.exprs[static_cast<std::size_t>(a)];
  const Expr& y = fn.exprs[static_cast<std::size_t>(b)];
  if (x.kind != y.kind || x.name != y.name || x.children.size() != y.children.size()) return false;
  if (x.kind != dsl::ExprKind::Name && x.children.empty() && !(x.number.isInt() && y.number.isInt() && x.number.i == y.number.i))
    return false;
  for (std::size_t i = 0; i < x.children.size(); ++i)
    if (!sameIndexExpr(fn, x.children[i], y.children[i], depth + 1)) return false;
  return true;
}

// An index expression's value under `env`: integer literals and constants, names bound in `env`, and
// + - * // % of those; nullopt otherwise.
std::optional<std::int64_t> evalIndex(const Function& fn, int expr, const Env& env, int depth) {
  if (expr < 0 || depth > 32) return std::nullopt;
  const Expr& e = fn.exprs[static_cast<std::size_t>(expr)];
  if (e.kind == dsl::ExprKind::Name)
    if (auto it = env.find(e.name); it != env.end()) return it->second;
  if (e.number.isInt()) return e.number.i;
  // pl.tensor.dim(x, k): the k-th dimension of x's type when static (an entry specialised from the
  // tensor specs its __main__ runs with has static shapes).
  if (e.kind == dsl::ExprKind::Call && e.isPlCall() && (e.opName() == "dim") && e.args.size() == 2) {
    const dsl::Value* t = fn.valueOf(e.args[0]);
    const std::optional<std::int64_t> k = evalIndex(fn, e.args[1], env, depth + 1);
    if (t && k && t->type.shape.rank_known && *k >= 0 && static_cast<std::size_t>(*k) < t->type.shape.dims.size())
      if (const dsl::Dim d = t->type.shape.dims[static_cast<std::size_t>(*k)]) return *d;
    // A dynamic dimension: the value its variable (`T_DYN = pl.dynamic("T_DYN")`) is bound to.
    if (t && k && !env.empty()) {
      const int dyn = tripDynamicDimExpr(fn, *t, *k);
      if (dyn >= 0) return evalIndex(fn, dyn, env, depth + 1);
    }
    return std::nullopt;
  }
  // pl.tile.get_block_idx() in a `with pl.spmd(n)` kernel: the block the task runs as when the env says
  // (each of the n blocks is a task), else block 0's, the block a round-robin split of items over the
  // blocks (`(ITEMS - idx + n - 1) // n`) gives the most.
  if (e.kind == dsl::ExprKind::Call && e.isPlCall() && e.opName() == "get_block_idx" && e.args.empty()) {
    if (auto it = env.find(kBlockIndexName); it != env.end()) return it->second;
    return 0;
  }
  // pl.cast(n, pl.INDEX) of an index: n.
  if (e.kind == dsl::ExprKind::Call && e.isPlCall() && e.opName() == "cast" && !e.args.empty())
    return evalIndex(fn, e.args[0], env, depth + 1);
  // pl.tensor.read(t, [i]) / pl.read(t, [i]): a run-time value read from a tensor; known only when the
  // measured configuration's inputs give `t` one value at every element (uniform sequence lengths:
  // `--assume seq_lens=128`).
  if (e.kind == dsl::ExprKind::Call && e.isPlCall() && e.opName() == "read" && !e.args.empty()) {
    const Expr& t = fn.exprs[static_cast<std::size_t>(e.args[0])];
    if (t.kind == dsl::ExprKind::Name)
      if (auto it = env.find(t.name); it != env.end()) return it->second;
    return std::nullopt;
  }
  // min / max of indices (pl.min(TOK_TILE, n - p0), Python's min): both sides known.
  if (e.kind == dsl::ExprKind::Call && e.args.size() == 2 && e.kwargs.empty()) {
    const std::string_view op = e.isPlCall() ? e.opName() : std::string_view(e.name);
    if (op == "min" || op == "max") {
      std::optional<std::int64_t> a = evalIndex(fn, e.args[0], env, depth + 1);
      std::optional<std::int64_t> b = evalIndex(fn, e.args[1], env, depth + 1);
      if (!a || !b) return std::nullopt;
      return op == "min" ? std::min(*a, *b) : std::max(*a, *b);
    }
  }
  // A local bound once to an index expression (`n_blocks = (n + B - 1) // B`): its definition.
  if (e.kind == dsl::ExprKind::Name && e.value >= 0) {
    const dsl::Value& v = fn.values[static_cast<std::size_t>(e.value)];
    if (v.def_stmt >= 0 && !v.loop_carried) {
      const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(v.def_stmt)];
      if (st.kind == dsl::StmtKind::Assign && st.targets.size() == 1 && st.value >= 0 && st.value != expr)
        return evalIndex(fn, st.value, env, depth + 1);
    }
  }
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
  // pl.range(k0, k0 + N, s) with k0 not known: its trip count is still N / s (the start is taken as 0).
  if ((!start || !stop) && step && *step > 0 && it.args.size() >= 2) {
    const Expr& hi = fn.exprs[static_cast<std::size_t>(it.args[1])];
    if (hi.kind == dsl::ExprKind::BinOp && hi.name == "+" && hi.children.size() == 2 &&
        sameIndexExpr(fn, hi.children[0], it.args[0], 0))
      if (const std::optional<std::int64_t> n = evalIndex(fn, hi.children[1], env))
        return Range{start.value_or(0), *step, *n > 0 ? (*n + *step - 1) / *step : 0};
  }
  if (!start || !stop || !step || *step <= 0) return std::nullopt;
  return Range{*start, *step, *stop > *start ? (*stop - *start + *step - 1) / *step : 0};
}


// The trip count of loop statement `l`: its static one, else its range's bounds evaluated under `env`.
std::optional<std::int64_t> tripCount(const Function& fn, int l, const Env& env) {
  const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(l)];
  if (st.loop >= 0)
    if (const std::optional<std::int64_t> n = fn.loops[static_cast<std::size_t>(st.loop)].trip_count) return n;
  const std::optional<Range> r = rangeOf(fn, l, env);
  return r ? std::optional<std::int64_t>(r->trips) : std::nullopt;
}


std::optional<bool> evalCondition(const Function& fn, int expr, const Env& env, int depth) {
  if (expr < 0 || depth > 32) return std::nullopt;
  const Expr& e = fn.exprs[static_cast<std::size_t>(expr)];
  if (e.kind == dsl::ExprKind::Compare && e.children.size() == 2) {
    const std::optional<std::int64_t> a = evalIndex(fn, e.children[0], env);
    const std::optional<std::int64_t> b = evalIndex(fn, e.children[1], env);
    if (a && b) return dsl::compareNumbers(e.name, dsl::Number::ofInt(*a), dsl::Number::ofInt(*b));
  }
  if (e.kind == dsl::ExprKind::BoolOp && (e.name == "and" || e.name == "or")) {
    // `a and b` is false as soon as one side is, true when both are (and `or` the other way round).
    const bool decisive = e.name == "or";
    bool all_known = true;
    for (int c : e.children) {
      const std::optional<bool> v = evalCondition(fn, c, env, depth + 1);
      if (v && *v == decisive) return decisive;
      if (!v) all_known = false;
    }
    if (all_known && !e.children.empty()) return !decisive;
    return std::nullopt;
  }
  if (e.kind == dsl::ExprKind::UnaryOp && e.name == "not" && e.children.size() == 1) {
    const std::optional<bool> v = evalCondition(fn, e.children[0], env, depth + 1);
    if (v) return !*v;
    return std::nullopt;
  }
  if (e.number.known()) return e.number.asDouble() != 0;
  if (e.kind == dsl::ExprKind::Compare || e.kind == dsl::ExprKind::BoolOp || e.kind == dsl::ExprKind::UnaryOp)
    return std::nullopt;
  // An index as a condition (`if n:`).
  if (const std::optional<std::int64_t> v = evalIndex(fn, expr, env)) return *v != 0;
  return std::nullopt;
}

std::vector<Enclosing> enclosingOf(const Function& fn, int stmt, int first, int stop) {
  std::vector<Enclosing> out;
  for (int c = stmt, p = fn.stmts[static_cast<std::size_t>(stmt)].parent; p >= 0;
       c = p, p = fn.stmts[static_cast<std::size_t>(p)].parent) {
    if (p < first || p == stop) break;
    const dsl::Stmt& ps = fn.stmts[static_cast<std::size_t>(p)];
    if (ps.loop >= 0 && (ps.kind == dsl::StmtKind::For || ps.kind == dsl::StmtKind::While)) {
      out.push_back({p, false, false});
    } else if (ps.kind == dsl::StmtKind::If && fn.stmts[static_cast<std::size_t>(c)].kind != dsl::StmtKind::Else) {
      out.push_back({p, true, false});
    } else if (ps.kind == dsl::StmtKind::Else && ps.parent >= 0 &&
               fn.stmts[static_cast<std::size_t>(ps.parent)].kind == dsl::StmtKind::If) {
      out.push_back({ps.parent, true, true});
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

namespace {

// The variable a loop binds to its index: its only target, or the first when the others are the names
// its init_values carry (`for k, (acc,) in pl.range(n, init_values=(a,))`); empty when there is none.
std::string tripLoopVariable(const dsl::Loop& loop) {
  if (loop.targets.size() == 1 || (!loop.targets.empty() && loop.targets.size() == loop.carried.size() + 1))
    return loop.targets[0];
  return {};
}

// The assignments of the loop variables of `chain` (outermost first) under which the statement inside
// it runs, each extended from `env`; the trailing loops after the last `if`, which only multiply, are
// expanded too unless `count_only`. `count` gets how many (the last loop's trips summed, not expanded,
// when `count_only`). A branch whose condition is not known under an assignment keeps it (it is added
// to `undecided`). nullopt when a range is not known or past kTaskLimit assignments.
std::optional<std::vector<Env>> guardedAssignments(const Function& fn, const std::vector<Enclosing>& chain,
                                                   const Env& env, bool count_only, std::int64_t& count,
                                                   std::set<int>* undecided) {
  std::vector<Env> envs{env};
  count = 0;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const Enclosing& en = chain[i];
    const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(en.stmt)];
    if (en.guard) {
      std::vector<Env> kept;
      for (Env& e : envs) {
        const std::optional<bool> holds = evalCondition(fn, st.value, e);
        if (!holds) {
          if (undecided) undecided->insert(en.stmt);
          kept.push_back(std::move(e));
        } else if (*holds != en.negated) {
          kept.push_back(std::move(e));
        }
      }
      envs = std::move(kept);
      continue;
    }
    const dsl::Loop& loop = fn.loops[static_cast<std::size_t>(st.loop)];
    if (count_only && i + 1 == chain.size()) {  // the innermost loop's trips only count
      for (const Env& e : envs) {
        const std::optional<Range> r = rangeOf(fn, en.stmt, e);
        if (!r) return std::nullopt;
        count += r->trips;
      }
      return std::vector<Env>{};
    }
    const std::string var = tripLoopVariable(loop);
    if (var.empty()) return std::nullopt;
    std::vector<Env> next;
    for (const Env& e : envs) {
      const std::optional<Range> r = rangeOf(fn, en.stmt, e);
      if (!r) return std::nullopt;
      for (std::int64_t k = 0; k < r->trips; ++k) {
        if (next.size() >= kTaskLimit) return std::nullopt;
        Env b = e;
        b[var] = r->start + k * r->step;
        next.push_back(std::move(b));
      }
    }
    envs = std::move(next);
  }
  count = static_cast<std::int64_t>(envs.size());
  return envs;
}

}  // namespace

// How often `stmt` runs within the loops around it (see the header).
std::optional<std::int64_t> tripsAround(const dsl::FileModel& file, const Function& fn, int stmt, int first,
                                        int stop, std::string& why, const Env& env, std::set<int>* undecided) {
  const std::vector<Enclosing> chain = enclosingOf(fn, stmt, first, stop);
  if (std::any_of(chain.begin(), chain.end(), [](const Enclosing& e) { return e.guard; })) {
    std::int64_t count = 0;
    std::set<int> open;
    if (guardedAssignments(fn, chain, env, true, count, &open)) {
      if (undecided) undecided->insert(open.begin(), open.end());
      return count;
    }
    // Past the limit, or a range not known: the loops alone, every branch taken.
  }
  std::int64_t trips = 1;
  for (int l = fn.stmts[static_cast<std::size_t>(stmt)].enclosing_loop; l >= 0 && l >= first && l != stop;
       l = fn.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
    const std::optional<std::int64_t> n = tripCount(fn, l, env);
    if (!n) {
      // A loop whose bounds are an enclosing loop's variable (`pl.range(lo(sb), K)` inside
      // `for sb in ...`): every assignment of the loops counted one by one.
      if (const std::optional<std::int64_t> all = loopAssignments(fn, stmt, first, stop, env)) return all;
      why = "trip count of the loop at " + where(file, fn, l);
      return std::nullopt;
    }
    trips *= *n;
  }
  return trips;
}


// Every assignment of the loop variables of the loops around `stmt` in `fn` under which it runs (see
// the header).
std::optional<std::vector<Env>> loopEnvs(const Function& fn, int stmt, const Env& base, std::size_t limit) {
  std::int64_t count = 0;
  std::optional<std::vector<Env>> envs = guardedAssignments(fn, enclosingOf(fn, stmt, 0, -1), base, false, count, nullptr);
  if (!envs || envs->size() > limit) return std::nullopt;
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


}  // namespace portcheck::cost

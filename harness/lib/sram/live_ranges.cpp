// Liveness: every call of a function gets a program point (kSub a statement, calls in evaluation
// order), every read of a buffer is filed under the buffer, and a read inside a loop the value was
// defined outside of holds the buffer for the whole loop.
#include "sram/sram_estimator_internal.h"

#include <algorithm>

namespace portcheck::sram::detail {

FunctionPoints functionPoints(const Function& fn) {
  FunctionPoints fp;
  fp.call_point.assign(fn.exprs.size(), -1);
  std::unordered_map<int, int> per_stmt;  // calls of a statement so far
  for (int c : fn.calls) {
    int s = fn.exprs[static_cast<std::size_t>(c)].stmt;
    int k = per_stmt[s]++;
    fp.call_point[static_cast<std::size_t>(c)] = s * kSub + std::min(k, kSub - 2);
  }
  std::function<void(int, int, int)> read = [&](int e, int point, int stmt) {
    if (e < 0) return;
    const Expr& x = fn.exprs[static_cast<std::size_t>(e)];
    if (x.value >= 0 && (x.kind == ExprKind::Name || x.kind == ExprKind::Call || x.kind == ExprKind::Attribute ||
                         x.kind == ExprKind::Subscript)) {
      fp.call_reads.push_back({x.value, point, stmt});
      if (x.kind == ExprKind::Call) return;
    }
    if (x.kind == ExprKind::List || x.kind == ExprKind::Tuple || x.kind == ExprKind::Keyword ||
        x.kind == ExprKind::Subscript)
      for (int child : x.children) read(child, point, stmt);
  };
  for (int c : fn.calls) {
    const Expr& call = fn.exprs[static_cast<std::size_t>(c)];
    const int p = fp.call_point[static_cast<std::size_t>(c)];
    for (int a : call.args) read(a, p, call.stmt);
    for (const auto& kw : call.kwargs) read(kw.second, p, call.stmt);
  }
  return fp;
}

void RegionEstimator::collectUses() {
  uses_.assign(fn_.values.size(), {});
  for (const auto& [value, point, stmt] : points_.call_reads)
    uses_[static_cast<std::size_t>(root(value))].push_back({point, stmt});
  // Reads outside a call (return x, y = x, out[:] = x): at the end of their statement.
  for (std::size_t i = 0; i < fn_.values.size(); ++i) {
    int r = root(static_cast<int>(i));
    for (int s : fn_.values[i].uses) {
      auto& u = uses_[static_cast<std::size_t>(r)];
      bool seen = std::any_of(u.begin(), u.end(), [&](const auto& pu) { return pu.second == s; });
      if (!seen) u.push_back({s * kSub + kSub - 1, s});
    }
  }
}

// Last point a value defined at `def_stmt` is held when read at (point, stmt).
int RegionEstimator::holdUntil(int def_stmt, int point, int stmt) const {
  int last = point;
  for (int l = fn_.stmts[static_cast<std::size_t>(stmt)].enclosing_loop; l >= 0 && inRegion(l);
       l = fn_.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
    if (def_stmt >= 0 && (def_stmt == l || fn_.contains(l, def_stmt))) break;
    last = std::max(last, (fn_.stmts[static_cast<std::size_t>(l)].subtree_end - 1) * kSub + kSub - 1);
  }
  return last;
}

}  // namespace portcheck::sram::detail

#include "lint/dsl/matmul_acc_without_matmul_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

// The accumulator comes from a matmul-family op, directly or through loop-carried rebinding.
bool startedByMatmul(const dsl::Function& fn, int expr, int depth = 0) {
  if (depth > 16) return true;  // do not guess
  const dsl::Value* v = fn.valueOf(expr);
  if (!v) return true;          // unresolved: do not guess
  if (v->param >= 0) return false;
  if (v->def_expr >= 0) {
    const dsl::Expr& def = exprOf(fn, v->def_expr);
    if (def.kind == dsl::ExprKind::Call) {
      if (isMatmulStart(def.pl_name)) return true;
      if (isMatmulAcc(def.pl_name)) return false;
      return def.pl_name.empty();  // a user call or a non-pl call: unknown, do not guess
    }
    return true;
  }
  return true;
}

// `init_cond=` (pl.matmul_acc / pl.tile.matmul_acc) overwrites the accumulator on the steps where it
// holds: the split-K start, with no separate pl.matmul. A literal False never overwrites.
bool startsWithInitCondition(const dsl::Function& fn, const dsl::Expr& call) {
  int cond = fn.arg(call, opBase(call.pl_name) == "matmul_acc" && call.pl_name.rfind("tile.", 0) == 0 ? 3 : 5,
                    "init_cond");
  if (cond < 0) return false;
  const dsl::Expr& e = exprOf(fn, cond);
  if (e.kind == dsl::ExprKind::None) return false;
  return !(e.kind == dsl::ExprKind::Bool && e.number.isInt() && e.number.i == 0);
}

}  // namespace

void MatmulAccWithoutMatmulCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                            std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl()) continue;
    bool any_start = false;
    for (int c : fn.calls)
      if (isMatmulStart(exprOf(fn, c).pl_name)) any_start = true;
    if (any_start) continue;  // an `if k == 0: pl.matmul else pl.matmul_acc` start exists
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      if (!isMatmulAcc(call.pl_name) || startsWithInitCondition(fn, call)) continue;
      int acc = fn.arg(call, 0, "acc");
      if (acc >= 0 && startedByMatmul(fn, acc)) continue;
      out.push_back(makeDiagnostic(
          "DSL116", file.path, call.loc.line, call.loc.col,
          "'" + calleeText(call) + "' in '" + fn.name +
              "' has no pl.matmul starting the accumulation: it accumulates onto whatever the L0C buffer holds",
          "start the K loop with `if k0 == 0: acc = pl.matmul(a, b)` and use pl.matmul_acc only in the else branch, or pass init_cond=(k0 == 0)"));
    }
  }
}

}  // namespace portcheck

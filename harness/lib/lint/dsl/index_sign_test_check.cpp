#include "lint/dsl/index_sign_test_check.h"

#include <optional>
#include <string>
#include <utility>

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using dsl_util::exprOf;

namespace {

// An INDEX scalar whose value may be negative: a parameter annotated `pl.Scalar[pl.INDEX]`, or a
// name bound to `pl.cast(..., pl.INDEX)`. A loop index is left alone (the fold is true for it).
bool mayBeNegativeIndex(const dsl::Function& fn, int expr) {
  const dsl::Expr& e = exprOf(fn, expr);
  if (e.kind != dsl::ExprKind::Name) return false;
  const dsl::Value* v = fn.valueOf(expr);
  if (!v || v->type.dtype != dsl::DType::Index) return false;
  if (v->param >= 0) return v->type.kind == dsl::ValueKind::Scalar;
  // A cast of a scalar read at run time (`pl.tensor.read`) is typed by its target alone.
  return v->def_expr >= 0 && exprOf(fn, v->def_expr).isPlCall() && exprOf(fn, v->def_expr).opName() == "cast" &&
         v->type.kind != dsl::ValueKind::Tile && v->type.kind != dsl::ValueKind::Tensor;
}

// `x OP c` decided by x >= 0 alone, as Simplify decides it: the folded outcome, or nullopt.
std::optional<bool> foldedOutcome(std::string_view op, std::int64_t c) {
  if (op == ">=" && c <= 0) return true;
  if (op == ">" && c <= -1) return true;
  if (op == "!=" && c <= -1) return true;
  if (op == "<" && c <= 0) return false;
  if (op == "<=" && c <= -1) return false;
  if (op == "==" && c <= -1) return false;
  return std::nullopt;
}

// The operator seen from the other side (`0 <= x` is `x >= 0`).
std::string_view mirrored(std::string_view op) {
  if (op == "<") return ">";
  if (op == ">") return "<";
  if (op == "<=") return ">=";
  if (op == ">=") return "<=";
  return op;
}

}  // namespace

void IndexSignTestCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                   std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl() || dsl_util::isHost(fn)) continue;
    for (std::size_t i = 0; i < fn.exprs.size(); ++i) {
      const dsl::Expr& cmp = fn.exprs[i];
      if (cmp.kind != dsl::ExprKind::Compare || cmp.children.size() != 2) continue;
      int lhs = cmp.children[0], rhs = cmp.children[1];
      std::string_view op = cmp.name;
      if (!mayBeNegativeIndex(fn, lhs)) {
        std::swap(lhs, rhs);
        op = mirrored(op);
      }
      if (!mayBeNegativeIndex(fn, lhs)) continue;
      std::optional<std::int64_t> c = exprOf(fn, rhs).number.asInt();
      if (!c) continue;
      std::optional<bool> folded = foldedOutcome(op, *c);
      if (!folded) continue;
      const std::string name = exprOf(fn, lhs).name;
      out.push_back(makeDiagnostic(
          "DSL128", file.path, cmp.loc.line, cmp.loc.col,
          "'" + std::string(file.text(cmp)) + "' tests the sign of the INDEX scalar '" + name +
              "': PyPTO's Simplify pass takes an INDEX as never negative and folds the test to " +
              (*folded ? "True" : "False") + ", so a negative '" + name + "' (a -1 'skip' slot) takes the " +
              (*folded ? "branch meant for valid values" : "same path as a valid one") + ", with no error",
          "pass the value as `pl.Scalar[pl.INT32]` (or keep it INT32: do not `pl.cast` it to pl.INDEX before the "
          "test), which keeps the comparison"));
    }
  }
}

}  // namespace portcheck

#include "lint/dsl/unsupported_construct_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

std::string exprHint(std::string_view kind) {
  if (kind == "ListComp" || kind == "GeneratorExp" || kind == "SetComp" || kind == "DictComp")
    return "unroll the comprehension into a pl.range / pl.unroll loop that computes one value per iteration";
  if (kind == "IfExp") return "use an if / else statement that assigns the value in both branches";
  if (kind == "Lambda") return "write a module-level @pl.jit.inline function instead of the lambda";
  return "Use supported expressions like variables, constants, operations, or function calls";
}

std::string stmtHint(std::string_view kind) {
  if (kind == "AugAssign") return "write the operation out: `x = pl.add(x, y)` instead of `x += y`";
  if (kind == "Assert") return "remove the assert (asserts are not allowed in DSL code)";
  if (kind == "FunctionDef") return "move the nested function to module level as a @pl.jit.inline function";
  return "rewrite the statement with DSL constructs (assignments, pl.* calls, pl loops, if / else, return)";
}

}  // namespace

void UnsupportedConstructCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                          std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl() || isHost(fn)) continue;
    for (const dsl::Stmt& s : fn.stmts) {
      if (s.kind != dsl::StmtKind::Unsupported || s.unsupported == "TooDeep") continue;
      out.push_back(makeDiagnostic("DSL106", file.path, s.loc.line, s.loc.col,
                                   "Unsupported statement type: " + s.unsupported, stmtHint(s.unsupported)));
    }
    int last_stmt = -1;
    for (int e : fn.unsupported_exprs) {
      const dsl::Expr& x = exprOf(fn, e);
      if (x.name == "TooDeep" || x.stmt == last_stmt) continue;  // the compiler stops at the first one of a statement
      last_stmt = x.stmt;
      // The compiler reports the enclosing statement's position.
      dsl::Loc at = x.stmt >= 0 ? stmtOf(fn, x.stmt).loc : x.loc;
      if (x.stmt >= 0 && stmtOf(fn, x.stmt).kind == dsl::StmtKind::Unsupported) continue;
      // Arguments of a with-scope header (pl.spmd(..., deps=[t for t in ...])) are evaluated by
      // Python when the scope is entered, not parsed as DSL.
      if (x.stmt >= 0 && stmtOf(fn, x.stmt).kind == dsl::StmtKind::Scope) continue;
      out.push_back(makeDiagnostic("DSL106", file.path, at.line, at.col, "Unsupported expression type: " + x.name,
                                   exprHint(x.name)));
    }
  }
}

}  // namespace portcheck

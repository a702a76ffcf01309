#include "lint/dsl/unwritten_output_param_check.h"

#include "lint/dsl/tensor_writes.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// `return x` or `return x, y`: a statement that only hands tensors back (a call in a return can write).
bool returnsNamesOnly(const dsl::Function& fn, int stmt) {
  const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(stmt)];
  if (st.kind != dsl::StmtKind::Return || st.value < 0) return false;
  const dsl::Expr& e = fn.exprs[static_cast<std::size_t>(st.value)];
  if (e.kind == dsl::ExprKind::Name) return true;
  if (e.kind != dsl::ExprKind::Tuple) return false;
  for (int c : e.children)
    if (fn.exprs[static_cast<std::size_t>(c)].kind != dsl::ExprKind::Name) return false;
  return true;
}

// The parameter's value (or a rebinding of its name) is read other than by a plain return.
bool usedBeyondReturn(const dsl::Function& fn, const dsl::Param& p) {
  for (const dsl::Value& v : fn.values) {
    if (v.name != p.name) continue;
    if (v.param < 0 && v.def_stmt >= 0) return true;  // rebound: something produced a new value for it
    for (int u : v.uses)
      if (!returnsNamesOnly(fn, u)) return true;
  }
  return false;
}

}  // namespace

void UnwrittenOutputParamCheck::check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
  WriteFinder finder(ctx.program);
  for (const dsl::FileModel& file : ctx.program.files) {
    if (!file.parsed) continue;
    for (const dsl::Function& fn : file.functions) {
      // A DSL function with a body: an entry, an orchestration, an InCore kernel, an inline stage.
      if (!fn.isDsl() || fn.stmts.empty() || fn.kind == dsl::FunctionKind::JitExtern) continue;
      for (const dsl::Param& p : fn.params) {
        if (p.is_self || p.direction != dsl::Direction::Out || p.type.kind != dsl::ValueKind::Tensor) continue;
        // Conservative: reported only when the tensor is used nowhere but in a return (a use of any
        // kind, a call it is passed to that the model does not follow included, may write it).
        if (finder.writes(fn, p) || usedBeyondReturn(fn, p)) continue;
        out.push_back(makeDiagnostic(
            id(), file.path, p.loc.line, p.loc.col,
            "'" + p.name + "' is pl.Out of '" + fn.name +
                "' but nothing writes it: no pl.store / pl.assemble into it, no subscript assignment, no kernel "
                "it is passed to as an output; the compiler drops the write (OutParamWriteDropped) or the golden "
                "compares zeros"));
      }
    }
  }
}

}  // namespace portcheck

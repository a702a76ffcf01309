#include "lint/dsl/kernel_argument_expression_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using dsl_util::exprOf;

namespace {

// Arithmetic on a value known only when the program runs (a loop variable, a scalar parameter): the
// codegen's BuildOneArgParam accepts a Var or a ConstInt / ConstFloat / ConstBool, nothing else. An
// expression of constants folds to a literal first.
bool runtimeArithmetic(const dsl::Expr& e) {
  return (e.kind == dsl::ExprKind::BinOp || e.kind == dsl::ExprKind::UnaryOp) && !e.number.known();
}

}  // namespace

void KernelArgumentExpressionCheck::checkFile(const DslCheckContext& ctx, const dsl::FileModel& file,
                                              std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl() || fn.isIncoreFunction()) continue;
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      if (dsl_util::inIncore(fn, call)) continue;
      const dsl::Function* callee = ctx.program.function(ctx.program.callee(fn, call));
      if (!callee || !callee->isIncoreFunction()) continue;
      for (std::size_t i = 0; i < call.args.size(); ++i) {
        const dsl::Expr& arg = exprOf(fn, call.args[i]);
        if (!runtimeArithmetic(arg)) continue;
        const std::string text(file.text(arg));
        out.push_back(makeDiagnostic(
            "DSL121", file.path, arg.loc.line, arg.loc.col,
            "argument " + std::to_string(i) + " of kernel '" + callee->name + "' is the expression '" + text +
                "': PyPTO's orchestration codegen passes only variables and constant literals to a kernel (COMP006, "
                "\"neither a variable nor a recognized constant literal\")",
            "give it a name first (`r0 = " + text + "`) and pass the name"));
      }
    }
  }
}

}  // namespace portcheck

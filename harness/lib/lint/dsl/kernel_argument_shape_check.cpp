#include "lint/dsl/kernel_argument_shape_check.h"

#include "dsl/kernel_arg_shapes.h"
#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

void KernelArgumentShapeCheck::check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const dsl::KernelShapeMismatch& m : dsl::kernelShapeMismatches(ctx.program)) {
    const dsl::Expr& arg = dsl_util::exprOf(*m.caller, m.arg);
    out.push_back(makeDiagnostic(
        "DSL120", m.file->path, arg.loc.line, arg.loc.col,
        "'" + arg.name + "' is " + m.arg_shape + ", passed as '" + m.param + "' of kernel '" + m.kernel->name +
            "', annotated " + m.param_shape + ": the kernel is compiled for " + m.param_shape +
            " and touches only that much of the argument",
        "make the kernel's annotation follow the shape it is called with (the same constants as the call), "
        "or pass a view of the annotated shape"));
  }
}

}  // namespace portcheck

#include "lint/dsl/unwritten_output_param_check.h"

#include "lint/dsl/buffer_writes.h"
#include "lint/dsl/tensor_writes.h"
#include "rules/catalogue.h"

namespace portcheck {

void UnwrittenOutputParamCheck::check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
  WriteFinder finder(ctx.program);
  BufferWriteFlow flow(ctx.program);
  for (const dsl::FileModel& file : ctx.program.files) {
    if (!file.parsed) continue;
    for (const dsl::Function& fn : file.functions) {
      // A DSL function with a body: an entry, an orchestration, an InCore kernel, an inline stage.
      if (!fn.isDsl() || fn.stmts.empty() || fn.kind == dsl::FunctionKind::JitExtern) continue;
      // A function the unit calls is judged at its caller, where the buffer's whole flow is seen
      // (DSL126): an "init" kernel that only hands its outputs on as task dependencies is fine when a
      // later kernel writes them.
      if (flow.isCalled(fn)) continue;
      for (const dsl::Param& p : fn.params) {
        if (p.is_self || p.direction != dsl::Direction::Out || p.type.kind != dsl::ValueKind::Tensor) continue;
        // Conservative: reported only when the tensor is used nowhere but in a return (a use of any
        // kind, a call it is passed to that the model does not follow included, may write it).
        if (finder.writes(fn, p) || !onlyReturned(fn, p)) continue;
        out.push_back(makeDiagnostic(
            id(), file.path, p.loc.line, p.loc.col,
            "'" + p.name + "' is pl.Out of '" + fn.name +
                "' but nothing writes it: no pl.store / pl.assemble into it, no subscript assignment, no kernel "
                "it is passed to as an output; the simulator returns the output's initial contents and the golden "
                "compares them (the compiler accepts it, at most with an unused-variable warning)"));
      }
    }
  }
}

}  // namespace portcheck

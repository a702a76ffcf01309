#include "lint/dsl/create_tensor_in_incore_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

void CreateTensorInIncoreCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                          std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    // Inside a pl.at scope of an opaque / jit entry, pl.create_tensor is accepted (the compiler
    // keeps the buffer on-chip); inside an InCore function it fails.
    if (!fn.isIncoreFunction()) continue;
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      if (call.pl_name != "create_tensor" && call.pl_name != "tensor.create") continue;
      out.push_back(makeDiagnostic("DSL104", file.path, call.loc.line, call.loc.col,
                                   "'" + calleeText(call) + "' inside InCore function '" + fn.name +
                                       "': tensors are allocated on the control plane, not in a kernel",
                                   "allocate the tensor in the caller (orchestration / @pl.jit entry) and take it as a "
                                   "pl.Out[...] parameter; for on-chip scratch use pl.create_tile"));
    }
  }
}

}  // namespace portcheck

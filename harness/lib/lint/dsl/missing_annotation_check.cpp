#include "lint/dsl/missing_annotation_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

void MissingAnnotationCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                       std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    // @pl.function methods need every annotation; @pl.jit functions take theirs from the call.
    bool needs = fn.kind == dsl::FunctionKind::InCore || fn.kind == dsl::FunctionKind::Orchestration ||
                 fn.kind == dsl::FunctionKind::Opaque ||
                 (fn.kind == dsl::FunctionKind::Inline && fn.in_program) || fn.kind == dsl::FunctionKind::OtherDsl;
    if (!needs || dsl_util::isHost(fn)) continue;
    for (const dsl::Param& p : fn.params) {
      if (p.is_self || p.has_annotation) continue;
      out.push_back(makeDiagnostic("DSL118", file.path, p.loc.line, p.loc.col,
                                   "Parameter '" + p.name + "' missing type annotation",
                                   "Add a type annotation like: " + p.name + ": pl.Tensor[[64], pl.FP32]"));
    }
  }
}

}  // namespace portcheck

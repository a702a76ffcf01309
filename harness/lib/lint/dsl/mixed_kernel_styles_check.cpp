#include "lint/dsl/mixed_kernel_styles_check.h"

#include "rules/catalogue.h"

namespace portcheck {

void MixedKernelStylesCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                       std::vector<Diagnostic>& out) const {
  if (!file.usesJit() || !file.usesProgram()) return;
  // Report at the first function of whichever style comes second.
  const dsl::Function* first_jit = nullptr;
  for (const dsl::Function& fn : file.functions)
    if (!fn.decorators.empty() && fn.decorators.front().pl_name.rfind("jit", 0) == 0) {
      first_jit = &fn;
      break;
    }
  const dsl::ProgramClass& prog = file.programs.front();
  if (!first_jit) return;
  bool jit_second = first_jit->loc.line > prog.loc.line;
  int line = jit_second ? first_jit->decorators.front().loc.line : prog.loc.line;
  int col = jit_second ? first_jit->decorators.front().loc.col : prog.loc.col;
  out.push_back(makeDiagnostic(
      "DSL113", file.path, line, col,
      jit_second ? "@pl.jit function '" + first_jit->name + "' in a file that also defines @pl.program class '" +
                       prog.name + "': one kernel form per port"
                 : "@pl.program class '" + prog.name + "' in a file that also defines @pl.jit function '" +
                       first_jit->name + "': one kernel form per port",
      "write the kernel either as module-level @pl.jit / @pl.jit.incore / @pl.jit.inline functions or as one "
      "@pl.program class with @pl.function methods, not both"));
}

}  // namespace portcheck

#include "lint/dsl/python_range_loop_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

void PythonRangeLoopCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                     std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl() || isHost(fn)) continue;
    for (const dsl::Loop& loop : fn.loops) {
      if (loop.iter != dsl::LoopIter::PythonRange) continue;
      const dsl::Stmt& s = stmtOf(fn, loop.stmt);
      out.push_back(makeDiagnostic("DSL105", file.path, s.loc.line, s.loc.col,
                                   "For loop must use pl.range(), pl.parallel(), pl.unroll(), pl.pipeline(), "
                                   "pl.while_(), pl.spmd(), or pl.split_aiv()",
                                   "replace `range(` with `pl.range(` (same arguments)"));
    }
  }
}

}  // namespace portcheck

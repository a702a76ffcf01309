#include "lint/dsl/pipeline_outside_incore_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

void PipelineOutsideIncoreCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                           std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!placementKnown(fn) || fn.isIncoreFunction()) continue;
    for (const dsl::Loop& loop : fn.loops) {
      if (loop.iter != dsl::LoopIter::PlPipeline) continue;
      const dsl::Stmt& s = stmtOf(fn, loop.stmt);
      if (s.incore) continue;
      out.push_back(makeDiagnostic("DSL103", file.path, s.loc.line, s.loc.col,
                                   "pl.pipeline loop outside any incore scope in '" + fn.name +
                                       "': pl.pipeline is only allowed inside pl.at",
                                   "move the K loop inside the `with pl.at(...)` block, or use pl.range for an "
                                   "orchestration loop"));
    }
  }
}

}  // namespace portcheck

#include "lint/dsl/parallel_loop_in_incore_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

// A pl.at scope with the chunked-loop optimizer (optimizations=[pl.auto_chunk] /
// optimization=pl.chunked_loop_optimizer) takes pl.parallel loops and chunks them.
bool chunked(const dsl::FileModel& file, const dsl::Function& fn, const dsl::Stmt& s) {
  if (s.region < 0) return false;
  const dsl::IncoreRegion& r = fn.regions[static_cast<std::size_t>(s.region)];
  if (r.scope < 0) return false;
  const dsl::Scope& sc = fn.scopes[static_cast<std::size_t>(r.scope)];
  for (const std::string& o : sc.optimizations)
    if (o.find("chunk") != std::string::npos) return true;
  if (sc.call < 0) return false;
  for (const auto& [kw, e] : exprOf(fn, sc.call).kwargs)
    if ((kw == "optimization" || kw == "optimizations") && file.text(exprOf(fn, e)).find("chunk") != std::string_view::npos)
      return true;
  return false;
}

}  // namespace

void ParallelLoopInIncoreCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                          std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl()) continue;
    for (const dsl::Loop& loop : fn.loops) {
      if (loop.iter != dsl::LoopIter::PlParallel && loop.iter != dsl::LoopIter::PlSpmd) continue;
      const dsl::Stmt& s = stmtOf(fn, loop.stmt);
      if (!s.incore || chunked(file, fn, s)) continue;
      std::string what(dsl::loopIterName(loop.iter));
      out.push_back(makeDiagnostic(
          "DSL102", file.path, s.loc.line, s.loc.col,
          what + " loop inside incore code in '" + fn.name + "': " + what + " is only allowed outside pl.at",
          what == "pl.spmd" ? "move the pl.spmd loop outside the pl.at scope (its body is already incore), or use pl.range here"
                            : "use pl.range inside the incore scope, or move the pl.parallel loop outside the pl.at scope"));
    }
    for (const dsl::Scope& sc : fn.scopes) {
      if (sc.kind != dsl::ScopeKind::Spmd) continue;
      const dsl::Stmt& s = stmtOf(fn, sc.stmt);
      if (!s.incore) continue;
      out.push_back(makeDiagnostic("DSL102", file.path, s.loc.line, s.loc.col,
                                   "pl.spmd scope inside incore code in '" + fn.name +
                                       "': pl.spmd is only allowed outside pl.at",
                                   "move the pl.spmd block outside the pl.at scope (its body is already incore)"));
    }
  }
}

}  // namespace portcheck

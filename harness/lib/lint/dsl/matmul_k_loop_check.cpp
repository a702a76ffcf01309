#include "lint/dsl/matmul_k_loop_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

// The K loop is the innermost loop holding a pl.matmul_acc in incore code; it should be a
// pl.pipeline so the next K tile loads while the cube computes the current one.
void MatmulKLoopCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                 std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl()) continue;
    std::vector<bool> reported(fn.stmts.size(), false);
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      if (call.pl_name.empty() || !isMatmulAcc(call.pl_name) || !inIncore(fn, call) || call.stmt < 0) continue;
      int loop_stmt = stmtOf(fn, call.stmt).enclosing_loop;
      if (loop_stmt < 0 || reported[static_cast<std::size_t>(loop_stmt)]) continue;
      const dsl::Stmt& ls = stmtOf(fn, loop_stmt);
      if (ls.loop < 0 || !ls.incore) continue;  // a loop outside pl.at around the scope is not the K loop
      const dsl::Loop& loop = fn.loops[static_cast<std::size_t>(ls.loop)];
      if (loop.iter != dsl::LoopIter::PlRange && loop.iter != dsl::LoopIter::PlUnroll) continue;
      reported[static_cast<std::size_t>(loop_stmt)] = true;
      std::string what(dsl::loopIterName(loop.iter));
      out.push_back(makeDiagnostic(
          "DSL115", file.path, ls.loc.line, ls.loc.col,
          "matmul K-loop uses " + what + " (pl.matmul_acc at line " + std::to_string(call.loc.line) +
              "): without pl.pipeline the K-tile loads do not overlap the matmul",
          "write the K loop as `for k0 in pl.pipeline(0, K, K_TILE, stage=2):` with pl.matmul when k0 == 0 and "
          "pl.matmul_acc otherwise"));
    }
  }
}

}  // namespace portcheck

#include "lint/dsl/spmd_scope_block_index_check.h"

#include <string>

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using dsl_util::exprOf;
using dsl_util::stmtOf;

namespace {

// The scope's body reads the block index or dispatches a kernel (a call of a DSL function that is not
// an inline helper, `self.<kernel>(...)`), as PyPTO's parser asks.
bool spmdBodyIsPerBlock(const dsl::ProgramModel& program, const dsl::Function& fn, const dsl::Stmt& with) {
  const int first = static_cast<int>(&with - fn.stmts.data());
  for (int c : fn.calls) {
    const dsl::Expr& call = exprOf(fn, c);
    if (call.stmt <= first || call.stmt >= with.subtree_end) continue;
    if (call.isPlCall()) {
      if (call.opName() == "get_block_idx") return true;
      continue;
    }
    if (call.name.rfind("self.", 0) == 0) return true;
    const dsl::Function* callee = program.function(program.callee(fn, call));
    if (callee && callee->isDsl() && !callee->isInline()) return true;
  }
  return false;
}

}  // namespace

void SpmdScopeBlockIndexCheck::checkFile(const DslCheckContext& ctx, const dsl::FileModel& file,
                                         std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl()) continue;
    for (const dsl::Scope& sc : fn.scopes) {
      if (sc.kind != dsl::ScopeKind::Spmd || sc.stmt < 0) continue;
      const dsl::Stmt& with = stmtOf(fn, sc.stmt);
      if (spmdBodyIsPerBlock(ctx.program, fn, with)) continue;
      std::string message = "the body of this `with pl.spmd(...)` scope in '" + fn.name +
                            "' neither reads its block index (`pl.tile.get_block_idx()`) nor dispatches a kernel: "
                            "every block would do the same work, and PyPTO's parser rejects it (COMP001)";
      if (!sc.as_name.empty())
        message += "; `as " + sc.as_name + "` does not bind the block index";
      out.push_back(makeDiagnostic("DSL129", file.path, with.loc.line, with.loc.col, message,
                                   "write `for b in pl.spmd(n):`, which binds the block index, or read it with "
                                   "`b = pl.tile.get_block_idx()` inside the scope"));
    }
  }
}

}  // namespace portcheck

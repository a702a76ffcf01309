#pragma once
// DSL129: a `with pl.spmd(...)` scope whose body neither reads its block index
// (`pl.tile.get_block_idx()`) nor dispatches a kernel: every block would do the same work, and PyPTO's
// parser rejects it. `with pl.spmd(n) as b:` does not bind the block index.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class SpmdScopeBlockIndexCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL129"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

#pragma once
// DSL124: DSL written for an older PyPTO than the pinned one (e2d0f78): the scope and loop forms pypto
// retired (#1819, #1895), each with the pinned compiler's own message and what replaces it.
#include <string_view>

#include "lint/dsl/dsl_check.h"

namespace portcheck {

class RemovedApiCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL124"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

// pl-relative names of removed operations (`incore`, `auto_incore`, `chunked_loop_optimizer`,
// `auto_chunk`): DSL114 leaves them to DSL124, which names the replacement.
bool isRemovedPlApi(std::string_view pl_name);

}  // namespace portcheck

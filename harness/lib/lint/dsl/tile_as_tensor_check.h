#pragma once
// DSL125: pl.load from, or pl.store into, a tensor made inside incore code (pl.reshape of a GM tensor,
// pl.create_tensor in a pl.at scope): there it is an on-chip tile, and the compiler rejects it.
#include <string_view>

#include "lint/dsl/dsl_check.h"

namespace portcheck {

class TileAsTensorCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL125"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

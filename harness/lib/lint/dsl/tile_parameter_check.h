#pragma once
// DSL107: a kernel / entry parameter typed pl.Tile.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class TileParameterCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL107"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

#pragma once
// DSL101: a tile operation outside any incore scope (the compiler's "Misplaced tensor op").
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class TileOpOutsideIncoreCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL101"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

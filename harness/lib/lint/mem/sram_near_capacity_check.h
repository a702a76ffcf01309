#pragma once
#include "lint/mem/mem_check.h"

namespace portcheck {

// MEM002: the estimated high-water mark is within the configured margin below the capacity
// (default 90%, option "mem.near_capacity_percent").
class SramNearCapacityCheck : public MemCheck {
 public:
  std::string_view id() const override { return "MEM002"; }
  void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

#pragma once
#include "lint/mem/mem_check.h"

namespace portcheck {

// MEM001: the estimated high-water mark of a kernel's memory space exceeds the platform capacity.
class SramOverCapacityCheck : public MemCheck {
 public:
  std::string_view id() const override { return "MEM001"; }
  void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO024: a move/layout instruction (TFILLPAD, TMOV, TEXTRACT, TTRANS, TRESHAPE, TSUBVIEW) with the same tile as destination and source (AUTO-R22).
class InPlaceMoveCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO024"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

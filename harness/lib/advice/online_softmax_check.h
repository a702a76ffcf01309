#pragma once
#include "advice/advice_check.h"

namespace portcheck {

// FUSE006: a kernel that takes the softmax over the whole key axis (matmul -> row max -> exp -> row
// sum -> matmul with V) in one tile: rewrite it in online-softmax (flash-attention) form.
class OnlineSoftmaxCheck : public AdviceCheck {
 public:
  std::string_view id() const override { return "FUSE006"; }
  void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

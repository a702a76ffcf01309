#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO021: TSYNC, PtoSetWaitFlag or Event<> inside a tile function, where AUTO mode drops them (AUTO-R18).
class TileFunctionSyncCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO021"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

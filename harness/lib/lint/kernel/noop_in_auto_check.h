#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO003: TSYNC, Event<>, PtoSetWaitFlag, SYNCALL, TPREFETCH_ASYNC: no effect in AUTO mode.
class NoopInAutoCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO003"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

#include "lint/kernel/push_pop_in_auto_check.h"

namespace portcheck {

using namespace kernel;

void PushPopInAutoCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  for (const Call& c : ctx.model.calls) {
    if (!c.instruction || c.instruction->kind != OpKind::Pipe || !c.reach.inAutoMode()) continue;
    out.push_back(at(ctx, c.pos, c.name + " in AUTO-mode code: pto-isa documents that TPUSH/TPOP do not work in "
                                          "AUTO mode (its own auto ST runs skip them), though its 2026-07 auto "
                                          "flash-attention kernel uses them"));
  }
}

}  // namespace portcheck

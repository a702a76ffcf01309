#include "lint/kernel/acc_to_vec_move_check.h"

namespace portcheck {

using namespace kernel;

void AccToVecMoveCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  if (ctx.platform != Platform::A2A3) return;
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.instruction || c.args.size() < 2) continue;
    if (c.name != "TMOV" && c.name != "TEXTRACT" && c.name != "TINSERT") continue;
    if (m.locOf(c.args[0]) != Loc::Vec || m.locOf(c.args[1]) != Loc::Acc) continue;
    out.push_back(at(ctx, c.pos, c.name + " from Acc tile '" + c.args[1].base + "' into Vec tile '" + c.args[0].base +
                                     "': a2a3 has no Acc->Vec path (cube and vector are separate cores)"));
  }
}

}  // namespace portcheck

#include "lint/kernel/tile_rebound_check.h"

#include <map>

namespace portcheck {

using namespace kernel;

void TileReboundCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  std::map<int, const Call*> first;  // destination symbol -> its first TRESHAPE/TSUBVIEW
  for (const Call& c : m.calls) {
    if (!c.instruction || c.instruction->kind != OpKind::Alias || !c.reach.inAutoMode() || c.args.empty()) continue;
    const Operand& dst = c.args[0];
    if (dst.symbol < 0 || dst.subscripted) continue;
    const Symbol& s = m.symbols[dst.symbol];
    auto [it, inserted] = first.emplace(dst.symbol, &c);
    if (!inserted) {
      Diagnostic d = at(ctx, c.pos, "tile '" + s.name + "' is already the destination of " + it->second->name +
                                        " at line " + std::to_string(it->second->pos.line) +
                                        "; an AUTO-mode tile has one fixed address for its lifetime");
      d.notes.push_back({ctx.file.path, it->second->pos.line, it->second->pos.column, "first binding here"});
      out.push_back(std::move(d));
    } else if (s.function == c.function && c.loop_depth > s.loop_depth && c.args.size() > 1 &&
               c.args[1].symbol >= 0 && m.symbols[c.args[1].symbol].loop_depth >= c.loop_depth) {
      // Rebinding to the same source every iteration is harmless; a source declared inside the loop changes.
      out.push_back(at(ctx, c.pos, c.name + " into tile '" + s.name +
                                       "' inside a loop that does not declare it: the tile is rebound on every "
                                       "iteration"));
    }
  }
}

}  // namespace portcheck

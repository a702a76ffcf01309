#include "lint/kernel/in_place_move_check.h"

namespace portcheck {

using namespace kernel;

namespace {

bool inPlaceOnlyManual(std::string_view name) {
  for (std::string_view n : {"TFILLPAD", "TFILLPAD_EXPAND", "TMOV", "TEXTRACT", "TTRANS", "TRESHAPE", "TSUBVIEW"})
    if (n == name) return true;
  return false;
}

}  // namespace

void InPlaceMoveCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.instruction || !c.reach.inAutoMode() || c.args.size() < 2 || !inPlaceOnlyManual(c.name)) continue;
    const Operand &dst = c.args[0], &src = c.args[1];
    if (dst.symbol < 0 || dst.symbol != src.symbol || dst.text != src.text) continue;
    const Symbol& s = m.symbols[dst.symbol];
    if (s.kind != SymbolKind::Tile && s.kind != SymbolKind::Other) continue;
    out.push_back(at(ctx, c.pos, c.name + "(" + dst.text + ", " + src.text +
                                     ") uses one tile as destination and source; that in-place form relies on "
                                     "manual-mode address aliasing the AUTO compiler does not promise"));
  }
}

}  // namespace portcheck

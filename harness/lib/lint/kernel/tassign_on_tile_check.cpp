#include "lint/kernel/tassign_on_tile_check.h"

namespace portcheck {

using namespace kernel;

namespace {

// TASSIGN(globalTensor, gmPointer) binds a GlobalTensor and stays legal in AUTO mode; an integer address
// (a literal, an offset variable, `(uint64_t)x.data() + n`) binds a tile.
bool bindsGlobal(const KernelModel& m, const Call& c) {
  if (c.args.size() < 2) return false;
  const Operand& addr = c.args[1];
  if (const Symbol* s = m.symbolOf(addr); s && s->kind == SymbolKind::GmPointer) return true;
  return addr.text.find("__gm__") != std::string::npos;
}

}  // namespace

void TassignOnTileCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.instruction || c.name != "TASSIGN" || !c.reach.inAutoMode() || c.args.empty()) continue;
    const Symbol* s = m.symbolOf(c.args[0]);
    if (s && (s->kind == SymbolKind::GlobalTensor || s->kind == SymbolKind::GmPointer)) continue;
    if (!(s && s->kind == SymbolKind::Tile) && bindsGlobal(m, c)) continue;
    out.push_back(at(ctx, c.pos,
                     "TASSIGN binds tile '" + c.args[0].text +
                         "' to a fixed address; in AUTO mode TASSIGN on a tile is a no-op and the compiler places "
                         "tiles, so whatever aliasing it expressed is lost"));
  }
}

}  // namespace portcheck

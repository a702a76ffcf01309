#include "lint/kernel/tile_capacity_check.h"

#include "kernel/buffer_limits.h"

namespace portcheck {

using namespace kernel;

void TileCapacityCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  for (const Symbol& s : ctx.model.symbols) {
    if (s.kind != SymbolKind::Tile || s.is_param || s.by_reference) continue;
    auto bytes = s.tile.bytes();
    std::int64_t cap = bufferCapacityBytes(ctx.platform, s.tile.loc);
    if (!bytes || cap <= 0 || *bytes <= cap) continue;
    Diagnostic d = at(ctx, s.pos, "tile '" + s.name + "' needs " + std::to_string(*bytes) + " bytes but the " +
                                      std::string(toString(s.tile.loc)) + " buffer of " +
                                      std::string(toString(ctx.platform)) + " holds " + std::to_string(cap));
    const Function* f = ctx.model.functionOf(s.function);
    d.sram = SramFigures{f ? f->name : "", std::string(toString(s.tile.loc)), *bytes, cap};
    out.push_back(std::move(d));
  }
}

}  // namespace portcheck

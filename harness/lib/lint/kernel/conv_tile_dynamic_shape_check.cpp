#include "lint/kernel/conv_tile_dynamic_shape_check.h"

namespace portcheck {

using namespace kernel;

void ConvTileDynamicShapeCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  for (const Symbol& s : ctx.model.symbols) {
    if (s.kind != SymbolKind::Tile || !s.tile.conv || !s.tile.conv_dynamic_shape || !s.reach.inAutoMode()) continue;
    if (s.is_param && s.by_reference) continue;  // reported where the tile is declared
    out.push_back(at(ctx, s.pos, "ConvTile '" + s.name +
                                     "' has a DYNAMIC ConvTileShape dimension; in AUTO mode GetShape returns only the "
                                     "static shape, so the runtime dimension is lost"));
  }
}

}  // namespace portcheck

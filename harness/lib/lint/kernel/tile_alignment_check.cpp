#include "lint/kernel/tile_alignment_check.h"

namespace portcheck {

using namespace kernel;

void TileAlignmentCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  // pto_tile.hpp:1521-1533: ND tiles need Cols*sizeof(T) % 32 == 0, DN tiles Rows*sizeof(T) % 32 == 0.
  for (const Symbol& s : ctx.model.symbols) {
    if (s.kind != SymbolKind::Tile || s.is_param || s.tile.slayout != "NoneBox") continue;
    const TileType& t = s.tile;
    auto e = t.elementBytes();
    bool nd = t.blayout == "RowMajor";
    auto dim = nd ? t.cols : t.rows;
    if (!e || !dim || *dim <= 0 || (*dim * *e) % 32 == 0) continue;
    out.push_back(at(ctx, s.pos, "tile '" + s.name + "' (" + t.canonical + "): " + (nd ? "a row" : "a column") +
                                     " is " + std::to_string(*dim) + " x " + std::to_string(*e) + " = " +
                                     std::to_string(*dim * *e) + " bytes, not a multiple of 32 (" +
                                     (nd ? "ND: Cols" : "DN: Rows") + " * sizeof(T) % 32 == 0)"));
  }
}

}  // namespace portcheck

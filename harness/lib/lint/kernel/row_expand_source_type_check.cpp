#include "lint/kernel/row_expand_source_type_check.h"

namespace portcheck {

using namespace kernel;

namespace {

// The per-row operand of a TROWEXPAND* op: ColMajor with one valid column, or RowMajor with 32/sizeof(T)
// valid columns (docs/isa/TROWEXPANDMUL.md).
bool perRow(const TileType& t) {
  if (t.valid_cols == 1 || t.cols == 1) return true;
  auto e = t.elementBytes();
  return t.blayout == "RowMajor" && e && t.valid_cols && *t.valid_cols == 32 / *e;
}

// Different C++ types for certain: a field both sides know differs. Shapes spelled with template parameters the
// linter cannot evaluate (`Tile<Vec, T, iRow, iCol>` vs `Tile<Vec, T, oRow, oCol>`) may instantiate equal.
bool provablyDifferent(const TileType& a, const TileType& b) {
  auto differ = [](const std::optional<std::int64_t>& x, const std::optional<std::int64_t>& y) {
    return x && y && *x != *y;
  };
  if (a.loc != b.loc || a.blayout != b.blayout || a.slayout != b.slayout) return true;
  if (a.elementBytes() && b.elementBytes() && a.dtype != b.dtype) return true;
  return differ(a.rows, b.rows) || differ(a.cols, b.cols) || differ(a.valid_rows, b.valid_rows) ||
         differ(a.valid_cols, b.valid_cols);
}

}  // namespace

void RowExpandSourceTypeCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.instruction || !c.reach.inAutoMode() || c.args.size() < 3) continue;
    if (c.name != "TROWEXPANDMUL" && c.name != "TROWEXPANDDIV" && c.name != "TROWEXPANDSUB") continue;
    const Symbol *dst = m.symbolOf(c.args[0]), *a = m.symbolOf(c.args[1]), *b = m.symbolOf(c.args[2]);
    if (!dst || !a || !b || dst->kind != SymbolKind::Tile || a->kind != SymbolKind::Tile || b->kind != SymbolKind::Tile)
      continue;
    const Symbol* full = perRow(b->tile) && !perRow(a->tile) ? a : perRow(a->tile) && !perRow(b->tile) ? b : nullptr;
    if (!full || full->tile.canonical == dst->tile.canonical || !provablyDifferent(full->tile, dst->tile)) continue;
    out.push_back(at(ctx, c.pos, c.name + ": the full-size source '" + full->name + "' (" + full->tile.canonical +
                                     ") is not the same tile type as the destination '" + dst->name + "' (" +
                                     dst->tile.canonical + "); AUTO mode supports same-type tiles only"));
  }
}

}  // namespace portcheck

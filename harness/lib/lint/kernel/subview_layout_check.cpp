#include "lint/kernel/subview_layout_check.h"

namespace portcheck {

using namespace kernel;

namespace {

std::string dims(const std::optional<std::int64_t>& r, const std::optional<std::int64_t>& c) {
  return std::to_string(*r) + "x" + std::to_string(*c);
}

bool known(const std::optional<std::int64_t>& v) { return v && *v >= 0; }

}  // namespace

void SubviewLayoutCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.instruction || c.name != "TSUBVIEW" || !c.reach.inAutoMode() || c.args.size() < 2) continue;
    const Symbol *dst = m.symbolOf(c.args[0]), *src = m.symbolOf(c.args[1]);
    if (!dst || !src || dst->kind != SymbolKind::Tile || src->kind != SymbolKind::Tile) continue;
    const TileType &d = dst->tile, &s = src->tile;
    if (d.loc != s.loc) continue;  // ISA002
    if (d.blayout != s.blayout) {
      out.push_back(at(ctx, c.pos, "TSUBVIEW from '" + src->name + "' (BLayout " + s.blayout + ") into '" + dst->name +
                                       "' (BLayout " + d.blayout + "); AUTO mode needs the same BLayout both sides"));
      continue;
    }
    bool rows = known(d.valid_rows) && known(s.valid_rows) && *s.valid_rows < *d.valid_rows;
    bool cols = known(d.valid_cols) && known(s.valid_cols) && *s.valid_cols < *d.valid_cols;
    if (rows || cols)
      out.push_back(at(ctx, c.pos, "TSUBVIEW into '" + dst->name + "' (valid " + dims(d.valid_rows, d.valid_cols) +
                                       ") from '" + src->name + "' (valid " + dims(s.valid_rows, s.valid_cols) +
                                       "): the source's valid region must cover the view's"));
  }
}

}  // namespace portcheck

#include "lint/kernel/tile_data_pointer_check.h"

namespace portcheck {

using namespace kernel;

namespace {

// Is the data() call `c` an argument, as written (`t.data()`), of a call to a __tf__ tile function the file
// declares? That is the form pto-isa's auto-mode docs prescribe for tile data (Library_Developer_Rules_And_
// Limitations.md §5): the tile function receives the TileDType by value.
bool passedToTileFunction(const KernelModel& m, const Call& c) {
  if (c.context != "argument") return false;
  for (const Call& outer : m.calls) {
    if (outer.function != c.function || !outer.object.empty() || outer.pos.byte > c.pos.byte) continue;
    bool tile_function = false;
    for (const Function& f : m.functions) tile_function |= f.tile_function && f.name == outer.name;
    if (!tile_function) continue;
    for (const Operand& a : outer.args) {
      std::string text;
      for (char ch : a.text)
        if (ch != ' ' && ch != '\t' && ch != '\n') text += ch;
      if (a.pos.byte <= c.pos.byte && c.pos.byte < a.pos.byte + a.text.size() && text == c.object + ".data()")
        return true;
    }
  }
  return false;
}

}  // namespace

void TileDataPointerCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (c.name != "data" || c.object.empty() || !c.args.empty() || !c.reach.inAutoMode()) continue;
    if (isLibraryFunction(m, c.function) || passedToTileFunction(m, c)) continue;
    const Symbol* s = c.object_symbol >= 0 ? &m.symbols[c.object_symbol] : nullptr;
    if (!s) continue;
    bool tile = s->kind == SymbolKind::Tile ||
                (s->kind == SymbolKind::Other && s->type_text.find("Tile") != std::string::npos &&
                 s->type_text.find("TileDType") == std::string::npos);
    if (!tile) continue;  // GlobalTensor::data() is the GM pointer and fine
    out.push_back(at(ctx, c.pos, "'" + c.object + ".data()' in kernel code: in AUTO mode a tile's data() is a "
                                                  "vector-typed handle, not a pointer (the CPU simulator still "
                                                  "returns T*, so the CPU build does not catch this)"));
  }
}

}  // namespace portcheck

#include "lint/kernel/tile_copy_check.h"

namespace portcheck {

using namespace kernel;

namespace {

// A parameter whose declared type is a tile (resolved, or a template parameter named like one).
bool tileTyped(const Symbol& s) {
  if (s.kind == SymbolKind::Tile) return true;
  if (s.kind != SymbolKind::Other) return false;
  const std::string& t = s.type_text;
  return t.find("Tile") != std::string::npos && t.find("::") == std::string::npos &&
         t.find("TileDType") == std::string::npos && t.find("Shape") == std::string::npos;
}

bool tileReturnType(const std::string& r) {
  for (const char* p : {"Tile<", "pto::Tile<", "TileLeft<", "TileRight<", "TileAcc<"})
    if (r.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

void TileCopyCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Function& f : m.functions) {
    if (f.tile_function || !f.reach.inAutoMode()) continue;  // tile functions take TileDType by value (AUTO012)
    for (int p : f.params) {
      const Symbol& s = m.symbols[p];
      if (!tileTyped(s) || s.by_reference || s.by_pointer || s.is_array) continue;
      out.push_back(at(ctx, s.pos, "tile parameter '" + s.name + "' of " + f.name +
                                       " is taken by value; AUTO-mode tiles cannot be copied"));
    }
    if (tileReturnType(f.return_type))
      out.push_back(at(ctx, f.pos, f.name + " returns a tile by value; AUTO-mode tiles cannot be copied"));
  }
  for (const Symbol& s : m.symbols) {
    if (s.copied_from.empty() || s.by_reference || s.is_param || !s.reach.inAutoMode()) continue;
    if (s.kind != SymbolKind::Tile) continue;
    const Symbol* src = nullptr;
    for (const Symbol& o : m.symbols)
      if (o.name == s.copied_from && o.scope_begin <= s.pos.byte && s.pos.byte < o.scope_end) src = &o;
    if (!src || src->kind != SymbolKind::Tile) continue;
    out.push_back(at(ctx, s.pos, "tile '" + s.name + "' is copy-constructed from tile '" + src->name +
                                     "'; AUTO-mode tiles cannot be copied"));
  }
  for (const Assignment& a : m.assignments) {
    if (!a.reach.inAutoMode() || a.left_symbol < 0 || a.right_symbol < 0) continue;
    if (!tileTyped(m.symbols[a.left_symbol]) || !tileTyped(m.symbols[a.right_symbol])) continue;
    out.push_back(at(ctx, a.pos, "tile '" + a.right + "' is assigned to tile '" + a.left +
                                     "'; AUTO-mode tiles cannot be copied or assigned"));
  }
  for (const Lambda& l : m.lambdas) {
    if (!l.reach.inAutoMode()) continue;
    out.push_back(at(ctx, l.pos, "lambda captures tile '" + m.symbols[l.copied_tiles.front()].name +
                                     "' by copy; AUTO-mode tiles cannot be copied"));
  }
}

}  // namespace portcheck

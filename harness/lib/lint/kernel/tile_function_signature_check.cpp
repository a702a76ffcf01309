#include "lint/kernel/tile_function_signature_check.h"

namespace portcheck {

using namespace kernel;

void TileFunctionSignatureCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Function& f : m.functions) {
    if (!f.tile_function || !f.reach.inAutoMode()) continue;
    if (f.return_type != "void")
      out.push_back(at(ctx, f.pos, "tile function " + f.name + " returns '" + f.return_type +
                                       "'; tile functions return void and hand scalars back through parameters"));
    for (int p : f.params) {
      const Symbol& s = m.symbols[p];
      if (!s.by_pointer && !s.by_reference) continue;
      // Tile data passed as a pointer or reference (`TileData::DType*`, `TileData&`). GM pointers
      // (`__gm__ T*`, `typename GlobalData::DType __out__* dst`) are how pto-isa's own tile functions write
      // to global memory, and a plain `T*` is not known to point into a tile.
      bool tile_data = s.kind == SymbolKind::Tile ||
                       (s.kind != SymbolKind::GmPointer && s.type_text.find("Tile") != std::string::npos &&
                        s.type_text.find("Global") == std::string::npos);
      if (!tile_data) continue;
      out.push_back(at(ctx, s.pos, "parameter '" + s.name + "' of tile function " + f.name + " is a " +
                                       (s.by_pointer ? "pointer" : "reference") +
                                       "; tile functions take `typename Tile::TileDType` by value (__in__/__out__)"));
    }
  }
}

}  // namespace portcheck

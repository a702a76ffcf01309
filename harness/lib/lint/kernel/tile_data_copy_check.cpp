#include "lint/kernel/tile_data_copy_check.h"

namespace portcheck {

using namespace kernel;

void TileDataCopyCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (c.name != "data" || c.object.empty() || !c.args.empty() || !c.reach.inAutoMode()) continue;
    if (!isLibraryFunction(m, c.function) || c.context != "bind-copy") continue;  // kernel code: AUTO006
    const Symbol* s = c.object_symbol >= 0 ? &m.symbols[c.object_symbol] : nullptr;
    if (!s) continue;
    bool tile = s->kind == SymbolKind::Tile ||
                (s->kind == SymbolKind::Other && s->type_text.find("Tile") != std::string::npos &&
                 s->type_text.find("TileDType") == std::string::npos);
    if (!tile) continue;  // GlobalTensor::data() is the GM pointer
    out.push_back(at(ctx, c.pos, "'" + c.object + ".data()' is copied into a local in " +
                                     m.functions[c.function].name +
                                     "; in AUTO mode the handle must reach the tile function unchanged"));
  }
}

}  // namespace portcheck

#include "lint/kernel/gm_access_check.h"

namespace portcheck {

using namespace kernel;

void GmAccessCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.instruction) continue;
    for (std::size_t i = 0; i < c.args.size(); ++i) {
      const Symbol* s = m.symbolOf(c.args[i]);
      if (!s || s->kind != SymbolKind::GlobalTensor || acceptsGlobalAt(*c.instruction, i, c.args.size())) continue;
      out.push_back(at(ctx, c.args[i].pos, "GlobalTensor '" + s->name + "' is operand " + std::to_string(i + 1) +
                                               " of " + c.name + "; tensors enter a kernel only through TLOAD "
                                               "and leave only through TSTORE"));
    }
  }
  for (const GmAccess& a : m.gm_accesses) {
    if (isLibraryFunction(m, a.function)) continue;
    const Symbol& s = m.symbols[a.symbol];
    out.push_back(at(ctx, a.pos, std::string(a.kind == GmAccessKind::Subscript ? "element access to " : "dereference of ") +
                                     (s.kind == SymbolKind::GlobalTensor ? "GlobalTensor '" : "global-memory tensor '") +
                                     s.name + "' bypasses the tiles; tensors enter a kernel only through TLOAD and "
                                              "leave only through TSTORE"));
  }
}

}  // namespace portcheck

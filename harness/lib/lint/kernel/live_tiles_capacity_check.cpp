#include "lint/kernel/live_tiles_capacity_check.h"

#include <map>
#include <set>

#include "kernel/buffer_limits.h"

namespace portcheck {

using namespace kernel;

void LiveTilesCapacityCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  // TRESHAPE/TSUBVIEW destinations alias their source: they take no storage of their own.
  std::set<int> aliases;
  for (const Call& c : m.calls)
    if (c.instruction && c.instruction->kind == OpKind::Alias && !c.args.empty() && c.args[0].symbol >= 0)
      aliases.insert(c.args[0].symbol);
  for (std::size_t f = 0; f < m.functions.size(); ++f) {
    std::map<Loc, std::int64_t> used;
    std::map<Loc, int> count;
    for (std::size_t i = 0; i < m.symbols.size(); ++i) {
      const Symbol& s = m.symbols[i];
      if (s.function != static_cast<int>(f) || s.kind != SymbolKind::Tile || s.is_param || s.by_reference) continue;
      if (aliases.count(static_cast<int>(i))) continue;
      if (auto b = s.tile.bytes()) {
        // A tile array holds all its elements at once; an array of unknown length counts as one element.
        std::int64_t n = s.is_array ? s.array_elements.value_or(1) : 1;
        used[s.tile.loc] += alignUp(*b) * n;
        count[s.tile.loc] += static_cast<int>(n);
      }
    }
    for (const auto& [loc, bytes] : used) {
      std::int64_t cap = bufferCapacityBytes(ctx.platform, loc);
      if (cap <= 0 || bytes <= cap || count[loc] < 2) continue;  // one oversized tile is ISA006
      Diagnostic d = at(ctx, m.functions[f].pos,
                        std::to_string(count[loc]) + " " + std::string(toString(loc)) + " tiles declared in " +
                            m.functions[f].name + " take " + std::to_string(bytes) + " bytes; the " +
                            std::string(toString(loc)) + " buffer of " + std::string(toString(ctx.platform)) +
                            " holds " + std::to_string(cap) + " (an upper bound: the compiler may reuse dead tiles)");
      d.sram = SramFigures{m.functions[f].name, std::string(toString(loc)), bytes, cap};
      out.push_back(std::move(d));
    }
  }
}

}  // namespace portcheck

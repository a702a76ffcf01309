#include "lint/mem/sram_near_capacity_check.h"

#include <algorithm>
#include <cstdio>

#include "rules/catalogue.h"

namespace portcheck {

void SramNearCapacityCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  double threshold = percentOption(ctx.settings, "mem.near_capacity_percent", 90.0);
  for (const sram::KernelEstimate& k : ctx.kernels)
    for (const sram::SpaceEstimate& s : k.spaces) {
      if (s.capacity <= 0 || s.hwm > s.capacity) continue;
      bool all_implicit = s.reserved == 0 && std::all_of(s.tiles.begin(), s.tiles.end(),
                                                         [](const sram::Interval& t) { return t.implicit; });
      if (all_implicit) continue;  // sized by the compiler itself (AutoTileMatmulL0 fills Left / Right)
      double pct = 100.0 * static_cast<double>(s.hwm) / static_cast<double>(s.capacity);
      if (pct < threshold) continue;
      char text[32];
      std::snprintf(text, sizeof text, "%.1f%%", pct);
      Diagnostic d = makeDiagnostic(id(), k.file, k.line, 1,
                                    "estimated " + s.space + " use of kernel '" + k.kernel + "' is " +
                                        std::to_string(s.hwm) + " of " + std::to_string(s.capacity) + " bytes (" +
                                        text + "), leaving " + std::to_string(s.capacity - s.hwm) +
                                        " bytes of headroom");
      d.sram = SramFigures{k.kernel, s.space, s.hwm, s.capacity};
      d.notes = largestTileNotes(k, s);
      out.push_back(std::move(d));
    }
}

}  // namespace portcheck

#include "lint/mem/sram_over_capacity_check.h"

#include <cstdio>

#include "rules/catalogue.h"

namespace portcheck {

void SramOverCapacityCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const sram::KernelEstimate& k : ctx.kernels)
    for (const sram::SpaceEstimate& s : k.spaces) {
      if (s.capacity <= 0 || s.hwm <= s.capacity) continue;
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * static_cast<double>(s.hwm) / static_cast<double>(s.capacity));
      Diagnostic d = makeDiagnostic(
          id(), k.file, k.line, 1,
          "estimated " + s.space + " use of kernel '" + k.kernel + "' is " + std::to_string(s.hwm) +
              " bytes, over the " + std::to_string(s.capacity) + "-byte capacity of " +
              std::string(toString(ctx.settings.platform)) + " (" + pct + ")");
      d.sram = SramFigures{k.kernel, s.space, s.hwm, s.capacity};
      d.notes = largestTileNotes(k, s);
      out.push_back(std::move(d));
    }
}

}  // namespace portcheck

#include "lint/mem/sram_over_capacity_check.h"

#include <algorithm>
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
      // Certain only when one tile the code declares (not one the model adds: implicit loads, L0 tiles,
      // pipeline copies, inlined callees) cannot fit on its own; over capacity by the modelled reuse
      // alone is a warning that says so. Acc is never certain: AutoTileMatmulL0 splits a matmul
      // result larger than L0C into M / N tiles.
      std::int64_t largest = 0;
      for (const sram::Interval& t : s.tiles)
        if (!t.implicit) largest = std::max(largest, (t.bytes + 31) / 32 * 32);
      if (largest <= s.capacity || s.space == "Acc") {
        d.severity = Severity::Warning;
        d.message += "; not certain: the estimate models the compiler's buffer reuse, and no tile the code "
                     "declares is over the capacity on its own (the largest: " + std::to_string(largest) + " bytes" +
                     (s.space == "Acc" ? ", and the compiler tiles a matmul result larger than Acc)" : ")");
      }
      d.sram = SramFigures{k.kernel, s.space, s.hwm, s.capacity};
      d.notes = largestTileNotes(k, s);
      out.push_back(std::move(d));
    }
}

}  // namespace portcheck

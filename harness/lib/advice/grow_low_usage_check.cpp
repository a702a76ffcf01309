#include "advice/grow_low_usage_check.h"

#include "advice/advice_text.h"
#include "rules/catalogue.h"

namespace portcheck {

void GrowLowUsageCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  double low = percentOption(ctx.settings, "fuse.low_usage_percent", 30.0);
  for (const sram::KernelEstimate& k : ctx.kernels) {
    if (k.split || !k.unknown.empty()) continue;
    const sram::SpaceEstimate* dom = nullptr;  // the space closest to its capacity
    for (const auto& s : k.spaces)
      if (s.capacity > 0 && (!dom || s.hwm * dom->capacity > dom->hwm * s.capacity)) dom = &s;
    if (!dom || dom->hwm <= 0) continue;
    if (100.0 * static_cast<double>(dom->hwm) >= low * static_cast<double>(dom->capacity)) continue;
    // Every space grows with the tiles: the factor is bounded by the tightest one.
    std::int64_t factor = 1;
    for (;;) {
      bool ok = true;
      for (const auto& s : k.spaces)
        if (s.capacity > 0 && (s.hwm - s.reserved) * factor * 2 + s.reserved > s.capacity) ok = false;
      if (!ok || factor >= 1024) break;
      factor *= 2;
    }
    if (factor < 2) continue;
    const sram::Interval* big = nullptr;
    for (const auto& t : dom->tiles)
      if (!t.implicit && !t.shape.empty()) {
        big = &t;
        break;
      }
    std::string tile_text;
    if (big) {
      std::vector<std::int64_t> grown = big->shape;
      grown[0] *= factor;
      tile_text = " (e.g. '" + big->name + "' " + advice::shapeText(big->shape) + " -> " + advice::shapeText(grown) +
                  ", " + std::to_string(big->bytes * factor) + " bytes)";
    }
    std::int64_t grown_hwm = (dom->hwm - dom->reserved) * factor + dom->reserved;
    Diagnostic d = makeDiagnostic(
        id(), k.file, k.line, 1,
        "kernel '" + k.kernel + "' uses " + std::to_string(dom->hwm) + " of " + std::to_string(dom->capacity) +
            " bytes of " + dom->space + " (" + advice::percent(dom->hwm, dom->capacity) + "): grow its tiles up to " +
            std::to_string(factor) + "x along the outer dimension" + tile_text + " for an estimated " +
            std::to_string(grown_hwm) + " bytes (" + advice::percent(grown_hwm, dom->capacity) +
            "), or fuse more work into it");
    d.sram = SramFigures{k.kernel, dom->space, dom->hwm, dom->capacity};
    out.push_back(std::move(d));
  }
}

}  // namespace portcheck

#include "advice/grow_low_usage_check.h"

#include "advice/advice_text.h"

#include <cstdio>

#include "cost/kernel_work.h"
#include "perf/task_time.h"
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
    // The tile cannot grow past the GM tensor it comes from or goes to: the outer dimension when
    // the tensor has room there, else the inner one; no advice when it already spans the tensor.
    std::size_t dim = 0;
    if (big && big->extent.size() == big->shape.size()) {
      auto room = [&](std::size_t d) {
        std::int64_t f = 1;
        while (f * 2 <= factor && big->shape[d] * f * 2 <= big->extent[d]) f *= 2;
        return f;
      };
      std::int64_t outer = room(0), inner = room(big->shape.size() - 1);
      if (outer >= 2 || outer >= inner) {
        factor = outer;
      } else {
        factor = inner;
        dim = big->shape.size() - 1;
      }
      if (factor < 2) continue;
    }
    std::string tile_text;
    if (big) {
      std::vector<std::int64_t> grown = big->shape;
      grown[dim] *= factor;
      tile_text = " (e.g. '" + big->name + "' " + advice::shapeText(big->shape) + " -> " + advice::shapeText(grown) +
                  ", " + std::to_string(big->bytes * factor) + " bytes)";
    }
    std::int64_t grown_hwm = (dom->hwm - dom->reserved) * factor + dom->reserved;
    // Weighed by time: a kernel that walks its blocks in a loop keeps its bytes when its tiles grow and
    // only saves the instructions' fixed costs; when the device-time model gives that less than 10% of
    // the task, the advice would only spend SRAM (a streaming kernel bound by its loads).
    std::string time_text;
    std::string why;
    if (std::optional<cost::KernelWork> w = cost::kernelWork(ctx.program, k, why); w && w->iterations >= factor) {
      const perf::DeviceSpec& spec = perf::deviceSpec(ctx.settings.platform);
      const std::string core = k.core.empty() ? "AIV" : k.core;
      const double now = perf::taskTime(*w, spec, core, 1).task;
      const double grown = perf::taskTime(cost::grownTiles(*w, factor), spec, core, 1).task;
      if (grown > 0.9 * now) continue;
      char b[96];
      std::snprintf(b, sizeof b, " (est. %.2f -> %.2f us per task, docs/perf-model.md)", now, grown);
      time_text = b;
    }
    Diagnostic d = makeDiagnostic(
        id(), k.file, k.line, 1,
        "kernel '" + k.kernel + "' uses " + std::to_string(dom->hwm) + " of " + std::to_string(dom->capacity) +
            " bytes of " + dom->space + " (" + advice::percent(dom->hwm, dom->capacity) + "): grow its tiles up to " +
            std::to_string(factor) + "x along " + (dim == 0 ? std::string("the outer dimension") : "dimension " + std::to_string(dim)) + tile_text + " for an estimated " +
            std::to_string(grown_hwm) + " bytes (" + advice::percent(grown_hwm, dom->capacity) +
            "), or fuse more work into it" + time_text);
    d.sram = SramFigures{k.kernel, dom->space, dom->hwm, dom->capacity};
    out.push_back(std::move(d));
  }
}

}  // namespace portcheck

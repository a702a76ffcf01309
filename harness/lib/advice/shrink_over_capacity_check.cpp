#include "advice/shrink_over_capacity_check.h"

#include "advice/advice_text.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// Re-packs a space with every tile whose outer dimension equals `rows` cut to rows / parts.
std::int64_t shrunk(const sram::SpaceEstimate& s, std::int64_t rows, std::int64_t parts) {
  std::vector<sram::Interval> ivs = s.tiles;
  for (auto& t : ivs)
    if (!t.shape.empty() && t.shape[0] == rows) t.bytes = (t.bytes + parts - 1) / parts;
  return sram::pack(ivs, s.reserved).hwm;
}

}  // namespace

void ShrinkOverCapacityCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const sram::KernelEstimate& k : ctx.kernels)
    for (const sram::SpaceEstimate& s : k.spaces) {
      if (s.capacity <= 0 || s.hwm <= s.capacity) continue;
      std::string head = "kernel '" + k.kernel + "' needs an estimated " + std::to_string(s.hwm) + " bytes of " +
                         s.space + " (capacity " + std::to_string(s.capacity) + "): ";
      std::vector<std::string> options;
      // 1. Shrink the outer dimension of the largest tile (and every tile sharing it) until it fits.
      const sram::Interval* big = nullptr;
      for (const auto& t : s.tiles)
        if (!t.implicit && !t.shape.empty()) {
          big = &t;
          break;
        }
      if (big && big->shape[0] > 1) {
        for (std::int64_t parts = 2; parts <= 64 && big->shape[0] % parts == 0; parts *= 2) {
          std::int64_t est = shrunk(s, big->shape[0], parts);
          if (est > s.capacity) continue;
          std::vector<std::int64_t> smaller = big->shape;
          smaller[0] /= parts;
          options.push_back("shrink dimension 0 of '" + big->name + "' from " + std::to_string(big->shape[0]) +
                            " to " + std::to_string(smaller[0]) + " (" + advice::shapeText(smaller) +
                            ", a loop over " + std::to_string(parts) + " blocks) for an estimated " +
                            std::to_string(est) + " bytes (" + advice::percent(est, s.capacity) + ")");
          break;
        }
      }
      // 2. A deep cross-core pipe ring: fewer slots.
      if (s.reserved > 0 && s.ring_slot > 0 && s.reserved > 2 * s.ring_slot) {
        std::int64_t est = s.hwm - s.reserved + 2 * s.ring_slot;
        options.push_back("lower the pipe ring from " + std::to_string(s.reserved / s.ring_slot) +
                          " to 2 slots with pl.cross_core_slot(slot_num=2) for an estimated " + std::to_string(est) +
                          " bytes (" + advice::percent(est, s.capacity) + ")");
      }
      // 3. A mixed cube + vector kernel without pl.split: each AIV takes half of the vector tiles.
      if (s.space == "Vec" && !k.split && s.tiles.size() > 1) {
        std::int64_t est = (s.hwm + 1) / 2;
        options.push_back("split the scope in two kernels of about " + std::to_string(est) + " bytes each");
      }
      if (options.empty()) continue;
      std::string msg = head;
      for (std::size_t i = 0; i < options.size(); ++i) msg += (i ? "; " : "") + options[i];
      Diagnostic d = makeDiagnostic(id(), k.file, k.line, 1, msg);
      d.sram = SramFigures{k.kernel, s.space, s.hwm, s.capacity};
      out.push_back(std::move(d));
    }
}

}  // namespace portcheck

#include "output/sram_table.h"

#include <cstdio>

#include "output/text_columns.h"

namespace portcheck {

std::optional<double> utilisationPercent(const SramRow& row) {
  std::optional<std::int64_t> used = row.actual ? row.actual : row.estimate;
  if (!used || row.capacity <= 0) return std::nullopt;
  return 100.0 * static_cast<double>(*used) / static_cast<double>(row.capacity);
}

std::string renderSramTable(const std::vector<SramRow>& rows) {
  const std::vector<std::string> header = {"function", "core", "space", "estimate", "actual", "capacity", "use", "tiles"};
  std::vector<std::vector<std::string>> cells;
  auto bytes = [](std::optional<std::int64_t> v) { return v ? std::to_string(*v) : std::string("-"); };
  bool cached = false;
  bool copied = false;
  for (const SramRow& r : rows) {
    char pct[32] = "-";
    if (auto u = utilisationPercent(r)) std::snprintf(pct, sizeof pct, "%.1f%%", *u);
    std::string fn = r.project.empty() ? r.function : r.project + ":" + r.function;
    std::string actual = bytes(r.actual);
    if (r.actual && r.actual_source == "cache") {
      actual += "*";
      cached = true;
    }
    std::string estimate = bytes(r.estimate);
    if (r.estimate && !r.estimate_from.empty()) {
      estimate += "^";
      copied = true;
    }
    cells.push_back({fn, r.core.empty() ? "-" : r.core, r.space, estimate, actual,
                     std::to_string(r.capacity), pct, std::to_string(r.tiles)});
  }
  std::string out = "SRAM usage (bytes)\n" + renderColumns(header, cells, 3);
  if (cached) out += "  * actual read from the compile cache: an earlier compile of the same sources, not compiled now\n";
  if (copied) out += "  ^ estimate of the kernel the compiler copied into this one (<name>_<k>: unrolled or instanced)\n";
  return out;
}

}  // namespace portcheck

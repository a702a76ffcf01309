#include <cstdio>
#include <cstdlib>

#include "lint/mem/mem_check.h"
#include "lint/mem/sram_near_capacity_check.h"
#include "lint/mem/sram_over_capacity_check.h"

namespace portcheck {

const std::vector<std::unique_ptr<MemCheck>>& memChecks() {
  static const std::vector<std::unique_ptr<MemCheck>> checks = [] {
    std::vector<std::unique_ptr<MemCheck>> v;
    v.push_back(std::make_unique<SramOverCapacityCheck>());
    v.push_back(std::make_unique<SramNearCapacityCheck>());
    return v;
  }();
  return checks;
}

std::vector<DiagnosticNote> largestTileNotes(const sram::KernelEstimate& k, const sram::SpaceEstimate& s,
                                             std::size_t max_tiles) {
  std::vector<DiagnosticNote> notes;
  if (s.reserved > 0)
    notes.push_back({k.file, k.line, 0,
                     std::to_string(s.reserved) + " bytes at the bottom of " + s.space +
                         " are the cross-core pipe ring (slot = the tile crossing from the cube core)"});
  for (const sram::Interval& t : s.tiles) {
    if (notes.size() >= max_tiles + (s.reserved > 0 ? 1 : 0)) break;
    notes.push_back({k.file, t.line, 0, "tile '" + t.name + "' holds " + std::to_string(t.bytes) + " bytes"});
  }
  return notes;
}

double percentOption(const LintSettings& settings, const std::string& key, double fallback) {
  if (!settings.config) return fallback;
  auto it = settings.config->options.find(key);
  if (it == settings.config->options.end()) return fallback;
  char* end = nullptr;
  double v = std::strtod(it->second.c_str(), &end);
  if (end == it->second.c_str() || *end != '\0' || v <= 0 || v > 100) return fallback;
  return v;
}

}  // namespace portcheck

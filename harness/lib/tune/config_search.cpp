#include "tune/config_search.h"

#include <algorithm>
#include <map>

#include "tune/cost_model.h"

namespace portcheck::tune {

double gridSize(const std::vector<Knob>& knobs) {
  double n = knobs.empty() ? 0 : 1;
  for (const Knob& k : knobs) n *= static_cast<double>(k.candidates.size());
  return n;
}

Config currentConfig(const std::vector<Knob>& knobs) {
  Config c;
  for (const Knob& k : knobs) c[k.name] = k.current;
  return c;
}

SearchResult searchConfigs(const std::vector<Knob>& knobs, const ScreenFn& screen, std::size_t grid_limit,
                           std::size_t width) {
  SearchResult result;
  result.grid_size = gridSize(knobs);
  if (knobs.empty()) return result;
  std::map<Config, std::size_t> seen;  // configuration -> index in result.configs
  auto screenOnce = [&](const Config& c) {
    auto [it, fresh] = seen.emplace(c, result.configs.size());
    if (fresh) {
      result.configs.push_back(screen(c));
      result.configs.back().current = isCurrent(c, knobs);
    }
    return it->second;
  };
  screenOnce(currentConfig(knobs));
  if (result.grid_size <= static_cast<double>(grid_limit)) {
    result.strategy = "grid";
    bool truncated = false;
    for (const Config& c : gridOf(knobs, grid_limit, truncated)) screenOnce(c);
    return result;
  }
  width = std::max<std::size_t>(width, 1);
  result.strategy = "beam search, width " + std::to_string(width);
  std::vector<Config> beam{currentConfig(knobs)};
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<Config> before = beam;
    for (const Knob& k : knobs) {
      std::vector<std::size_t> expanded;
      for (const Config& b : beam)
        for (std::int64_t v : k.candidates) {
          Config c = b;
          c[k.name] = v;
          expanded.push_back(screenOnce(c));
        }
      std::sort(expanded.begin(), expanded.end());
      expanded.erase(std::unique(expanded.begin(), expanded.end()), expanded.end());
      std::stable_sort(expanded.begin(), expanded.end(), [&](std::size_t a, std::size_t b) {
        return ranksBefore(result.configs[a], result.configs[b]);
      });
      std::vector<Config> next;
      for (std::size_t i : expanded)
        if (result.configs[i].pruned.empty() && next.size() < width) next.push_back(result.configs[i].config);
      if (!next.empty()) beam = std::move(next);
    }
    if (beam == before) break;
  }
  return result;
}

}  // namespace portcheck::tune

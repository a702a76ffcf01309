#include "tune/config_space.h"

#include <algorithm>

namespace portcheck::tune {

std::vector<Knob> knobsOf(const dsl::ProgramModel& program) {
  std::vector<Knob> knobs;
  for (const dsl::FileModel& file : program.files)
    for (const dsl::Tunable& t : file.tunables) {
      const dsl::Constant* constant = nullptr;
      for (const dsl::FileModel& f : program.files)
        if (const dsl::Constant* c = f.constant(t.name); c && !c->imported && c->value.isInt()) constant = c;
      if (!constant) continue;
      Knob k{t.name, constant->value.i, {}};
      for (const auto& [value, loc] : t.candidates)
        if (value.isInt() && value.i > 0 && std::find(k.candidates.begin(), k.candidates.end(), value.i) == k.candidates.end())
          k.candidates.push_back(value.i);
      if (!k.candidates.empty() && std::none_of(knobs.begin(), knobs.end(), [&](const Knob& o) { return o.name == k.name; }))
        knobs.push_back(std::move(k));
    }
  return knobs;
}

std::vector<Config> gridOf(const std::vector<Knob>& knobs, std::size_t limit, bool& truncated) {
  truncated = false;
  std::vector<Config> grid{Config{}};
  for (const Knob& k : knobs) {
    std::vector<Config> next;
    for (const Config& partial : grid)
      for (std::int64_t v : k.candidates) {
        if (next.size() == limit) {
          truncated = true;
          break;
        }
        Config c = partial;
        c[k.name] = v;
        next.push_back(std::move(c));
      }
    grid = std::move(next);
  }
  if (knobs.empty()) grid.clear();
  return grid;
}

std::string label(const Config& config) {
  if (config.empty()) return "the port as it is";
  std::string out;
  for (const auto& [name, value] : config) out += (out.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return out;
}

bool isCurrent(const Config& config, const std::vector<Knob>& knobs) {
  for (const Knob& k : knobs)
    if (auto it = config.find(k.name); it == config.end() || it->second != k.current) return false;
  return true;
}

std::optional<Config> parseConfig(const std::string& text) {
  Config config;
  if (text == "current") return config;
  if (!text.empty() && text.back() == ',') return std::nullopt;
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t comma = text.find(',', from);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(from, comma - from);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) return std::nullopt;
    try {
      std::size_t used = 0;
      const std::string value = item.substr(eq + 1);
      config[item.substr(0, eq)] = std::stoll(value, &used);
      if (used != value.size()) return std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
    from = comma + 1;
  }
  return config;
}

}  // namespace portcheck::tune

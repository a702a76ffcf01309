#pragma once
// The configurations `port-check tune` tries: the grid of the port's TUNABLES (docs/tune.md), each
// knob a module constant with its declared candidates, the hand-chosen value marked.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dsl/dsl_model.h"

namespace portcheck::tune {

struct Knob {
  std::string name;
  std::int64_t current = 0;                // the value the port has now
  std::vector<std::int64_t> candidates;    // declared, positive, without repeats
};

using Config = std::map<std::string, std::int64_t>;  // knob -> value

// The declared knobs of a program that name an integer constant of it (TUNE001's are left out).
std::vector<Knob> knobsOf(const dsl::ProgramModel& program);

// Every combination of the knobs' candidates, in declaration order, at most `limit`; `truncated` says
// whether the grid was larger.
std::vector<Config> gridOf(const std::vector<Knob>& knobs, std::size_t limit, bool& truncated);

// "ROW_TILE=32, KV_BLOCK=64"
std::string label(const Config& config);

// Whether `config` is the port as it is (every knob at its current value).
bool isCurrent(const Config& config, const std::vector<Knob>& knobs);
// "NAME=V,NAME=V" (tune --only) as a configuration; "current" (an empty map) is the port as it is. nullopt
// when malformed.
std::optional<Config> parseConfig(const std::string& text);

}  // namespace portcheck::tune

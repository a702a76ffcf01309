#pragma once
// port-check doctor's verdicts: one check per piece a level needs, each with what was found and, when
// it is missing, the command or setting that fixes it (docs/doctor.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "doctor/doctor_facts.h"

namespace portcheck::doctor {

// The levels a user can reach, each needing the ones before it.
enum class Level { Passes, Kernels, Simulator };
std::string_view toString(Level level);
std::optional<Level> parseLevel(std::string_view text);

// Ok: there and working. Warning: works, but results may differ from upstream's (say how).
// Missing: the level cannot be reached until it is fixed. Skipped: not checked, because an earlier check
// it needs failed or the probe was interrupted (`found` says which); its level is not reached either.
enum class CheckState { Ok, Warning, Missing, Skipped };
std::string_view toString(CheckState state);

struct Check {
  std::string id;      // stable, e.g. "simulator.bf16"
  Level level;
  std::string title;   // "BF16 in simulated kernels"
  CheckState state = CheckState::Ok;
  std::string found;   // what is there (version, path), or what is wrong
  std::string fix;     // the command or setting that fixes it; empty when nothing needs fixing
};

// The checks in level order. Pure: reads `facts` only.
std::vector<Check> judge(const ToolchainFacts& facts);

// The highest level whose checks, and those of every level below, are all Ok or Warning.
std::optional<Level> reachedLevel(const std::vector<Check>& checks);

}  // namespace portcheck::doctor

#pragma once
// --assume NAME=INTEGER (report, tune): the value a name the source leaves to run time takes, for the
// schedule's counts and the device time (docs/perf-model.md §3).
#include <optional>
#include <string>
#include <vector>

#include "cost/trip_counts.h"

namespace portcheck {

// The assumptions as a name -> value map; nullopt with `bad` set to the first argument that is not
// NAME=INTEGER.
std::optional<cost::Env> parseAssumptions(const std::vector<std::string>& args, std::string& bad);

}  // namespace portcheck

#pragma once
// A golden mismatch that a lint finding of the same run already predicts (rules/wrong_numbers.h):
// each GOLD001 / GOLD002 gets a note per such finding, so the user reads the cause next to the
// symptom instead of suspecting the simulator.
#include <vector>

#include "core/diagnostic.h"

namespace portcheck {

// Adds to each GOLD001 / GOLD002 in `run` a note per finding of `lint` whose rule predicts wrong
// numbers.
void noteStaticCauses(std::vector<Diagnostic>& run, const std::vector<Diagnostic>& lint);

}  // namespace portcheck

#pragma once
// Knobs proposed from a port's shapes when it declares no TUNABLES (docs/tune.md): every module-level
// integer constant of the port's own files that the code floor-divides a known extent by
// (`pl.range(ROWS // ROW_TILE)`), with the powers of two that divide every such extent, from an eighth
// to eight times its value (its value included). On a2a3, a constant that is the innermost extent of
// a pl.load keeps only the candidates whose row is at least 512 B (the L2 cache line the compiler's
// PH001 hint asks for). A proposal is a starting point: the compile and the golden decide.
#include <string>
#include <vector>

#include "core/platform.h"
#include "dsl/dsl_model.h"
#include "tune/config_space.h"

namespace portcheck::tune {

std::vector<Knob> proposedKnobs(const dsl::ProgramModel& program, const std::vector<std::string>& own_files,
                                Platform platform);

}  // namespace portcheck::tune

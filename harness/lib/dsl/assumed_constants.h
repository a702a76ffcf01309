#pragma once
// Building a unit's model with values the user assumes for names the source leaves to run time
// (`port-check report --assume EP=8`): a module constant the model cannot evaluate (`EP =
// _parse_ep_argv()`, read from the command line) takes the assumed value; a constant it can evaluate
// keeps its own. docs/perf-model.md §3.
#include <span>

#include "core/source_file.h"
#include "dsl/dsl_model.h"

namespace portcheck::dsl {

ProgramModel buildProgramModelAssuming(std::span<const SourceFile> files, const ConstantOverrides& assumed,
                                       const ConstantOverrides* overrides = nullptr);

}  // namespace portcheck::dsl

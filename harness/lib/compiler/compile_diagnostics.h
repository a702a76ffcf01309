#pragma once
// Turns the facts of one compile into diagnostics (COMP, PERF and MEM1xx rules). Messages keep the
// compiler's wording; locations are display paths into the user's sources (or, for a ptoas error
// in generated code, the .pto in the output folder with a note at the user's line).
#include <string>
#include <vector>

#include "compiler/compile_record.h"
#include "compiler/path_mapper.h"
#include "compiler/source_locator.h"

namespace portcheck {

std::vector<Diagnostic> compilerErrorDiagnostics(const CompilerError& error, const PathMapper& paths);
Diagnostic compilerWarningDiagnostic(const CompilerWarning& warning, const PathMapper& paths);
Diagnostic perfHintDiagnostic(const PerfHint& hint, const PathMapper& paths);

// MEM101 (a compute function above capacity) and MEM102 (a compute function using little of its
// dominant space) from the SRAM rows; `reported` lists (function, space) pairs an error already covers.
std::vector<Diagnostic> sramDiagnostics(const std::vector<SramRow>& rows, const SourceLocator& locator,
                                        const CompileAnalysisOptions& options,
                                        const std::vector<std::pair<std::string, std::string>>& reported);

// Notes naming the largest tiles ("tile 'tx' (32768 bytes of Vec)"), at their lines when known.
std::vector<DiagnosticNote> largestTileNotes(const std::vector<SramTile>& tiles, const std::string& space,
                                             std::size_t max_notes = 3);

}  // namespace portcheck

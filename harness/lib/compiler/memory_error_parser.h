#pragma once
// The three on-chip overflow messages that arrive as a builtin ValueError:
//  - AllocateMemoryAddr's in-pass CHECK: `<Space> buffer usage (<N> bytes) exceeds platform limit
//    (<L> bytes)[. <reserved-bytes note>]` + `Check failed: limit == 0 || used <= limit at ...`
//    (no function, no location);
//  - the DSA-RP planner: `DSA-RP could not find a placement for '<f>' within the on-chip memory
//    capacities[: <diag>] [<file>:<l>:<c>]` (function and location, no bytes);
//  - AutoTileMatmulL0: `... resident in Left (L0A) ... requiring <N> bytes, but the active backend
//    provides <C> bytes. ... [<file>:<l>:<c>]` (bytes and location, no function).
#include <optional>
#include <string>

#include "compiler/compile_facts.h"
#include "compiler/path_mapper.h"

namespace portcheck {

// `exception_type` as printed; `message` = str(exc). nullopt when it is none of the three.
std::optional<CompilerError> parseMemoryError(const std::string& exception_type, const std::string& message,
                                              const PathMapper& paths);

// `<Space> buffer usage (<N> bytes) exceeds platform limit (<L> bytes)` at the start of `text`.
struct OverflowFigures {
  std::string space;
  std::int64_t used = 0;
  std::int64_t limit = 0;
  std::string first_sentence;
  std::string note;  // text after the first sentence (the reserved-bytes note), without the leading ". "
};
std::optional<OverflowFigures> parseOverflowSentence(const std::string& text);

}  // namespace portcheck

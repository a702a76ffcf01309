#pragma once
// The nanobind 3 trap: a PyPTO native module built against nanobind >= 3 rejects `ir.TileView()` with no
// arguments (the binding's empty-pointer default no longer lets None through), and pypto's parser calls
// exactly that, so every program fails with `ParserSyntaxError: Failed to parse function ...`. Both doctor's
// probe and the compile stage's error classification recognise it by its TypeError.
#include <string>
#include <string_view>

namespace portcheck {

// True when `text` (an exception, a log) holds nanobind's rejection of a TileView constructor call.
bool isNanobindTileViewError(std::string_view text);

// What fixes it, for a diagnostic hint or a doctor fix: rebuild PyPTO against nanobind 2.
std::string nanobindTrapFix(const std::string& python);

}  // namespace portcheck

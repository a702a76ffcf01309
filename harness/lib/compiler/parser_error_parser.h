#pragma once
// The Rust-style block pypto's excepthook prints for a frontend (parser) error:
//   Error: <message>
//     --> <file>:<line>:<col>
//      | <numbered snippet with carets>
//      = help: <hint>
//      = note: <note>
//   note: run with `PTO_BACKTRACE=1` environment variable to display a backtrace.
#include <string>
#include <vector>

namespace portcheck {

struct RenderedParserError {
  std::string message;
  std::string file;  // as printed (not mapped); empty when the error has no span
  int line = 0;
  int column = 0;
  std::string help;
  std::string note;
};

// Every rendered block in `lines` (colour already stripped). A block needs the `-->` line or the
// closing `PTO_BACKTRACE` note, so an unrelated `Error: ...` line (ptoas prints
// `Error: Failed to parse MLIR.`) is not taken for one.
std::vector<RenderedParserError> parseRenderedParserErrors(const std::vector<std::string>& lines);

}  // namespace portcheck

#pragma once
// Line diff of two texts: the changed line ranges (hunks without context), as `diff -U0` gives them.
// Computed by libgit2's xdiff (Myers with the patience heuristics git uses), already linked for the
// git stage.
#include <string_view>
#include <vector>

namespace portcheck::ledger {

// One changed stretch: lines [old_start, old_start + old_lines) of the old text became lines
// [new_start, new_start + new_lines) of the new one (1-based). A pure insertion has old_lines 0 and
// old_start the line it follows; a pure deletion has new_lines 0 and new_start the line it follows.
struct Hunk {
  int old_start = 0;
  int old_lines = 0;
  int new_start = 0;
  int new_lines = 0;
  bool operator==(const Hunk&) const = default;
};

// The hunks turning `before` into `after`, in order; empty when they are equal. Texts are compared
// line by line as bytes (a missing final newline counts as a change of the last line).
std::vector<Hunk> diffLines(std::string_view before, std::string_view after);

}  // namespace portcheck::ledger

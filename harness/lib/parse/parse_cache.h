#pragma once
// Python parse trees shared across the units of one run: a module imported by many program files (a
// model's config.py, its layers) is parsed once, each unit getting a cheap copy of the tree
// (SyntaxTree::copyFor) over its own copy of the text. Keyed by the text itself; thread-safe; bounded
// (past kMaxCachedBytes of text, files are parsed without being kept).
#include <cstddef>
#include <string_view>

#include "parse/syntax_tree.h"

namespace portcheck {

inline constexpr std::size_t kMaxCachedBytes = 64u << 20;

// The Python tree of `text`, bound to `text` (which the caller keeps alive).
SyntaxTree parsePythonShared(std::string_view text);

}  // namespace portcheck

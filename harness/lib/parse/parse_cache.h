#pragma once
// Python parse trees shared across the units of one run: a module imported by many program files (a
// model's config.py, its layers) is parsed once, each unit getting a cheap copy of the tree
// (SyntaxTree::copyFor) over its own copy of the text. Keyed by the text itself; thread-safe.
//
// Only while a RunCacheScope is alive (the lint engine holds one for a run): outside one every call
// parses afresh, and a new outermost scope starts from an empty cache, so a long-lived process (a
// fuzzer, a server) never accumulates trees. Within a run, past kMaxCachedBytes of text, files are
// parsed without being kept.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parse/syntax_tree.h"

namespace portcheck {

inline constexpr std::size_t kMaxCachedBytes = 32u << 20;

// Marks a run whose units may share parse results (and other per-text caches keyed on run
// generations). Nested scopes share the outermost one's generation.
class RunCacheScope {
 public:
  RunCacheScope();
  ~RunCacheScope();
  RunCacheScope(const RunCacheScope&) = delete;
  RunCacheScope& operator=(const RunCacheScope&) = delete;
};

// The current run's generation (a new value for each outermost scope), 0 outside any scope. A cache
// keyed on text keeps entries only for the generation it was filled in.
std::uint64_t runCacheGeneration();

// The Python tree of `text`, bound to `text` (which the caller keeps alive).
SyntaxTree parsePythonShared(std::string_view text);

}  // namespace portcheck

#include "parse/parse_cache.h"

#include <memory>
#include <mutex>

namespace portcheck {

namespace {

struct Scopes {
  std::mutex mutex;
  int depth = 0;
  std::uint64_t generation = 0;  // of the current outermost scope
  std::uint64_t next = 0;
};

Scopes& scopes() {
  static Scopes s;
  return s;
}

}  // namespace

RunCacheScope::RunCacheScope() {
  Scopes& s = scopes();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.depth++ == 0) s.generation = ++s.next;
}

RunCacheScope::~RunCacheScope() {
  Scopes& s = scopes();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (--s.depth == 0) s.generation = 0;
}

std::uint64_t runCacheGeneration() {
  Scopes& s = scopes();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.generation;
}

SyntaxTree parsePythonShared(std::string_view text) {
  static RunTextCache<std::shared_ptr<const SyntaxTree>> trees;  // each tree over its key's text
  if (std::optional<std::shared_ptr<const SyntaxTree>> shared = trees.find(text)) return (*shared)->copyFor(text);
  SyntaxTree fresh = SyntaxTree::parse(Language::Python, text);
  if (fresh.ok())  // a timed-out parse is not kept
    trees.store(text, [&](std::string_view key) { return std::make_shared<const SyntaxTree>(fresh.copyFor(key)); });
  return fresh;
}

}  // namespace portcheck

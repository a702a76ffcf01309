#include "parse/parse_cache.h"

#include <memory>
#include <mutex>

#include "parse/tree_arena.h"

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

std::size_t sampledTextHash(std::string_view text) {
  constexpr std::size_t kWhole = 6144, kEnds = 2048, kSlices = 64, kSlice = 16;
  if (text.size() <= kWhole) return std::hash<std::string_view>{}(text);
  std::string sample;
  sample.reserve(2 * kEnds + kSlices * kSlice + sizeof(std::size_t));
  const std::size_t size = text.size();
  sample.append(reinterpret_cast<const char*>(&size), sizeof size);
  sample.append(text.substr(0, kEnds));
  const std::size_t middle = size - 2 * kEnds;
  for (std::size_t i = 0; i < kSlices; ++i) sample.append(text.substr(kEnds + middle * i / kSlices, kSlice));
  sample.append(text.substr(size - kEnds));
  return std::hash<std::string_view>{}(sample);
}

namespace {

RunTextCache<std::shared_ptr<const SyntaxTree>>& pythonTrees() {
  static RunTextCache<std::shared_ptr<const SyntaxTree>> trees;  // each tree over its key's text
  return trees;
}

}  // namespace

std::size_t keptPythonTrees() { return runCacheGeneration() == 0 ? 0 : pythonTrees().size(); }

SyntaxTree parsePythonShared(std::string_view text) {
  auto& trees = pythonTrees();
  if (std::optional<std::shared_ptr<const SyntaxTree>> shared = trees.find(text)) return (*shared)->copyFor(text);
  // A text asked for a second time (a module another unit imports as well) is kept for the rest of the
  // run; one asked for once is not, so a unit's trees go with it: files that import one another are
  // one unit, so most modules are asked for once, and keeping every tree cost a run more in memory
  // (and page faults) than the few shared parses saved. A timed-out parse is never kept.
  if (!trees.askedBefore(text)) return SyntaxTree::parse(Language::Python, text);
  TreeArenaPause outside;  // a kept tree outlives the unit's tree arena (parse/tree_arena.h)
  SyntaxTree fresh = SyntaxTree::parse(Language::Python, text);
  if (fresh.ok())
    trees.store(text, [&](std::string_view key) { return std::make_shared<const SyntaxTree>(fresh.copyFor(key)); });
  return fresh;
}

}  // namespace portcheck

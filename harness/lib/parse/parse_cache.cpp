#include "parse/parse_cache.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

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

struct Cache {
  std::mutex mutex;
  std::uint64_t generation = 0;
  std::unordered_map<std::string, std::shared_ptr<const SyntaxTree>> trees;  // text -> tree over the key
  std::size_t bytes = 0;
};

Cache& cache() {
  static Cache c;
  return c;
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
  const std::uint64_t generation = runCacheGeneration();
  if (generation == 0) return SyntaxTree::parse(Language::Python, text);
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.generation != generation) {  // a new run: the last run's trees go
      c.trees.clear();
      c.bytes = 0;
      c.generation = generation;
    }
    auto it = c.trees.find(std::string(text));
    if (it != c.trees.end()) return it->second->copyFor(text);
  }
  SyntaxTree fresh = SyntaxTree::parse(Language::Python, text);
  if (!fresh.ok()) return fresh;  // a timed-out parse is not kept
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.generation != generation || c.bytes + text.size() > kMaxCachedBytes) return fresh;
  auto [it, inserted] = c.trees.try_emplace(std::string(text), nullptr);
  if (inserted) {
    it->second = std::make_shared<const SyntaxTree>(fresh.copyFor(it->first));
    c.bytes += text.size();
  }
  return fresh;
}

}  // namespace portcheck

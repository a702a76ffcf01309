#include "parse/parse_cache.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace portcheck {

namespace {

struct Cache {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const SyntaxTree>> trees;  // text -> tree over the key
  std::size_t bytes = 0;
};

Cache& cache() {
  static Cache c;
  return c;
}

}  // namespace

SyntaxTree parsePythonShared(std::string_view text) {
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.trees.find(std::string(text));
    if (it != c.trees.end()) return it->second->copyFor(text);
  }
  SyntaxTree fresh = SyntaxTree::parse(Language::Python, text);
  if (!fresh.ok()) return fresh;  // a timed-out parse is not kept
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.bytes + text.size() > kMaxCachedBytes) return fresh;
  auto [it, inserted] = c.trees.try_emplace(std::string(text), nullptr);
  if (inserted) {
    it->second = std::make_shared<const SyntaxTree>(fresh.copyFor(it->first));
    c.bytes += text.size();
  }
  return fresh;
}

}  // namespace portcheck

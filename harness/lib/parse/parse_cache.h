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
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

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

// A hash of a text that reads at most ~6 KB of it: all of a short text; of a long one its size, its first
// and last 2 KB and 64 slices of 16 bytes spread over the rest. Texts that differ only elsewhere collide,
// and a cache then tells them apart by comparing them whole: a run hashes each file's text several
// times (parse and import caches), which read every byte each time.
std::size_t sampledTextHash(std::string_view text);

// A value computed from a file's text, remembered for the current run only: empty outside a
// RunCacheScope, emptied when a new run starts, bounded by kMaxCachedBytes of keys. Thread-safe.
template <class V>
class RunTextCache {
 public:
  // The value remembered for `text` in this run.
  std::optional<V> find(std::string_view text) {
    const std::uint64_t generation = runCacheGeneration();
    if (generation == 0) return std::nullopt;
    std::lock_guard<std::mutex> lock(mutex_);
    startRun(generation);
    auto it = values_.find(text);  // looked up by the view: a text is not copied to be looked up
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  // Whether `text` was asked about before in this run (it is remembered by its hash from now on: a text
  // whose sampled hash another's matches counts as asked, which only decides what a run keeps).
  bool askedBefore(std::string_view text) {
    const std::uint64_t generation = runCacheGeneration();
    if (generation == 0) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    startRun(generation);
    return !asked_.insert(TextHash{}(text)).second;
  }
  // How many values this run keeps.
  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    startRun(runCacheGeneration());
    return values_.size();
  }
  // Remembers make(key) for `text`, `key` being the cache's own copy of the text (alive as long as the
  // entry); nothing outside a run or past the bound.
  template <class Make>
  void store(std::string_view text, Make make) {
    const std::uint64_t generation = runCacheGeneration();
    if (generation == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    startRun(generation);
    if (bytes_ + text.size() > kMaxCachedBytes) return;
    auto [it, inserted] = values_.try_emplace(std::string(text));
    if (!inserted) return;
    it->second = make(std::string_view(it->first));
    bytes_ += text.size();
  }

 private:
  void startRun(std::uint64_t generation) {
    if (generation_ == generation) return;
    values_.clear();
    asked_.clear();
    bytes_ = 0;
    generation_ = generation;
  }
  std::mutex mutex_;
  std::uint64_t generation_ = 0;
  struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return sampledTextHash(s); }
  };
  std::unordered_map<std::string, V, TextHash, std::equal_to<>> values_;
  std::unordered_set<std::uint64_t> asked_;
  std::size_t bytes_ = 0;
};

// How many Python trees the current run keeps for sharing (0 outside a run).
std::size_t keptPythonTrees();

// The Python tree of `text`, bound to `text` (which the caller keeps alive).
SyntaxTree parsePythonShared(std::string_view text);

}  // namespace portcheck

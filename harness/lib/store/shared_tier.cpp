#include "store/shared_tier.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "store/cache_stats.h"
#include "store/envelope.h"
#include "store/local_tier.h"
#include "store/store_backend.h"

namespace portcheck::store {

namespace fs = std::filesystem;

namespace {

// The counters and notes of this process since the last finishSharedCache(), per cache root.
struct SharedTierLedger {
  std::mutex mutex;
  std::map<fs::path, CacheStats> stats;
  std::vector<std::string> notes;

  void note(const fs::path& root, const std::string& text) {
    std::lock_guard lock(mutex);
    stats[root].notes.push_back(text);
    notes.push_back(text);
  }
  template <typename F>
  void update(const fs::path& root, F f) {
    std::lock_guard lock(mutex);
    f(stats[root]);
  }
};

SharedTierLedger& tierLedger() {
  static auto* ledger = new SharedTierLedger;  // never destroyed: the writer thread may outlive main()
  return *ledger;
}

struct PendingPut {
  fs::path root;
  std::string kind, key, bytes;
};

// The remote store of one configuration: a reader used under a lock by the cache lookups (from the
// stages' worker threads), and a writer owned by the write-behind thread.
class RemoteTier : public std::enable_shared_from_this<RemoteTier> {
 public:
  RemoteTier(const RemoteUrl& url, std::chrono::milliseconds timeout)
      : url_(url), reader_(makeRemoteStore(url, timeout)), writer_(makeRemoteStore(url, timeout)) {}

  std::optional<std::string> get(const fs::path& root, std::string_view kind, const std::string& key) {
    if (disabled_) return std::nullopt;
    StoreGet g;
    {
      std::lock_guard lock(read_mutex_);
      if (disabled_) return std::nullopt;
      g = reader_->get(std::string(kind), key);
    }
    SharedTierLedger& ledger = tierLedger();
    if (g.status == StoreGet::Status::Failed) {
      ledger.update(root, [](CacheStats& s) { ++s.remote.errors; });
      disable(root, g.error);
      return std::nullopt;
    }
    if (g.status == StoreGet::Status::Miss) {
      ledger.update(root, [](CacheStats& s) { ++s.remote.misses; });
      return std::nullopt;
    }
    std::string why;
    std::optional<std::string> payload = openEnvelope(g.bytes, kind, key, why);
    const std::uint64_t n = g.bytes.size();
    if (!payload) {
      ledger.update(root, [n](CacheStats& s) {
        ++s.remote.misses;
        ++s.remote.rejected;
        s.remote.bytes_read += n;
      });
      ledger.note(root, "shared cache: " + std::string(kind) + " entry " + key.substr(0, 12) + " at " +
                            reader_->locate(std::string(kind), key) + " rejected: " + why + "; treated as a miss");
      return std::nullopt;
    }
    ledger.update(root, [n](CacheStats& s) {
      ++s.remote.hits;
      s.remote.bytes_read += n;
    });
    return payload;
  }

  void put(const fs::path& root, std::string_view kind, const std::string& key, std::string payload) {
    if (disabled_) return;
    std::lock_guard lock(mutex_);
    queue_.push_back({root, std::string(kind), key, wrapEnvelope(kind, key, payload)});
    if (!writer_started_) {
      writer_started_ = true;
      std::thread([self = shared_from_this()] { self->writeBehind(); }).detach();
    }
    cv_.notify_all();
  }

  // Waits up to `bound` for the queue; returns how many writes were abandoned.
  std::size_t flush(std::chrono::milliseconds bound) {
    std::unique_lock lock(mutex_);
    if (cv_.wait_for(lock, bound, [&] { return queue_.empty() && !busy_; })) return 0;
    std::size_t abandoned = queue_.size() + (busy_ ? 1 : 0);
    queue_.clear();
    return abandoned;
  }

  void stop() {
    std::lock_guard lock(mutex_);
    stop_ = true;
    queue_.clear();
    cv_.notify_all();
  }

  const RemoteUrl& url() const { return url_; }
  bool disabled() const { return disabled_; }

 private:
  void writeBehind() {
    for (;;) {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      PendingPut p = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
      lock.unlock();
      if (!disabled_) {
        std::string error;
        const bool ok = writer_->put(p.kind, p.key, p.bytes, error);
        const std::uint64_t n = p.bytes.size();
        tierLedger().update(p.root, [ok, n](CacheStats& s) {
          if (ok) {
            ++s.remote.writes;
            s.remote.bytes_written += n;
          } else {
            ++s.remote.errors;
          }
        });
        if (!ok) disable(p.root, error);
      }
      lock.lock();
      busy_ = false;
      if (disabled_) queue_.clear();  // nothing more goes to a store that is off
      cv_.notify_all();
    }
  }

  void disable(const fs::path& root, const std::string& error) {
    if (disabled_.exchange(true)) return;
    tierLedger().note(root, "shared cache: remote store " + url_.display + " is off for the rest of this run: " +
                                error + " (the local cache still works)");
  }

  RemoteUrl url_;
  std::atomic<bool> disabled_{false};
  std::mutex read_mutex_;
  std::unique_ptr<StoreBackend> reader_;
  std::unique_ptr<StoreBackend> writer_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<PendingPut> queue_;
  bool busy_ = false, stop_ = false, writer_started_ = false;
};

struct SharedTierConfig {
  std::mutex mutex;
  SharedCacheSettings settings;
  std::shared_ptr<RemoteTier> remote;
};

SharedTierConfig& tierConfig() {
  static auto* config = new SharedTierConfig;  // never destroyed, as the ledger
  return *config;
}

std::shared_ptr<RemoteTier> currentRemote() {
  SharedTierConfig& c = tierConfig();
  std::lock_guard lock(c.mutex);
  return c.remote;
}

bool sameRemote(const SharedCacheSettings& a, const SharedCacheSettings& b) {
  return a.timeout == b.timeout && a.remote.has_value() == b.remote.has_value() &&
         (!a.remote || a.remote->display == b.remote->display);
}

}  // namespace

void configureSharedCache(const SharedCacheSettings& settings) {
  SharedTierConfig& c = tierConfig();
  std::shared_ptr<RemoteTier> old;
  {
    std::lock_guard lock(c.mutex);
    // A store turned off in an earlier run of this process (an MCP server) is tried again.
    const bool keep = sameRemote(c.settings, settings) && c.remote && !c.remote->disabled();
    c.settings = settings;
    if (keep) return;
    old = std::move(c.remote);
    if (settings.remote) c.remote = std::make_shared<RemoteTier>(*settings.remote, settings.timeout);
  }
  if (old) {
    old->flush(2 * settings.timeout);
    old->stop();
  }
}

const SharedCacheSettings& sharedCacheSettings() { return tierConfig().settings; }

void countLocalLookup(const fs::path& cache_root, bool hit, std::uint64_t bytes) {
  tierLedger().update(cache_root, [hit, bytes](CacheStats& s) {
    if (hit) ++s.local.hits;
    else ++s.local.misses;
    s.local.bytes_read += bytes;
  });
}

void countLocalWrite(const fs::path& cache_root, std::uint64_t bytes) {
  tierLedger().update(cache_root, [bytes](CacheStats& s) {
    ++s.local.writes;
    s.local.bytes_written += bytes;
  });
}

void noteSharedCache(const fs::path& cache_root, const std::string& note) { tierLedger().note(cache_root, note); }

void rejectRemoteEntry(const fs::path& cache_root, std::string_view kind, const std::string& key,
                       const std::string& why) {
  tierLedger().update(cache_root, [](CacheStats& s) {
    --s.remote.hits;  // counted as a hit when the envelope was intact
    ++s.remote.misses;
    ++s.remote.rejected;
  });
  noteSharedCache(cache_root, "shared cache: " + std::string(kind) + " entry " + key.substr(0, 12) +
                                  " rejected: " + why + "; treated as a miss");
}

std::optional<std::string> remoteGet(const fs::path& cache_root, std::string_view kind, const std::string& key) {
  std::shared_ptr<RemoteTier> remote = currentRemote();
  if (!remote) return std::nullopt;
  return remote->get(cache_root, kind, key);
}

void remotePut(const fs::path& cache_root, std::string_view kind, const std::string& key, std::string payload) {
  std::shared_ptr<RemoteTier> remote = currentRemote();
  if (remote) remote->put(cache_root, kind, key, std::move(payload));
}

std::vector<std::string> finishSharedCache() {
  const SharedCacheSettings settings = sharedCacheSettings();
  SharedTierLedger& ledger = tierLedger();
  if (std::shared_ptr<RemoteTier> remote = currentRemote()) {
    std::size_t abandoned = remote->flush(2 * settings.timeout);
    if (abandoned) {
      fs::path root;
      {
        std::lock_guard lock(ledger.mutex);
        if (!ledger.stats.empty()) root = ledger.stats.begin()->first;
      }
      ledger.update(root, [abandoned](CacheStats& s) { s.abandoned_writes += abandoned; });
      ledger.note(root, "shared cache: " + std::to_string(abandoned) + " write" + (abandoned == 1 ? "" : "s") + " to " +
                            remote->url().display + " abandoned: not done within " +
                            std::to_string(2 * settings.timeout.count()) + " ms of the end of the run");
    }
  }
  std::map<fs::path, CacheStats> stats;
  std::vector<std::string> notes;
  {
    std::lock_guard lock(ledger.mutex);
    stats.swap(ledger.stats);
    notes.swap(ledger.notes);
  }
  for (auto& [root, delta] : stats) {
    // Only a cache root port-check prepared (prepareCacheRoot's .gitignore): never count or evict elsewhere.
    std::error_code ec;
    if (root.empty() || !fs::is_regular_file(root / ".gitignore", ec)) continue;
    if (settings.max_local_bytes > 0) {
      Eviction ev = evictLocalTier(root, settings.max_local_bytes);
      delta.evicted_entries += ev.entries;
      delta.evicted_bytes += ev.bytes;
    }
    if (delta.empty()) continue;
    std::string error;
    if (!addCacheStats(root, delta, error)) notes.push_back("shared cache: the counters were not saved: " + error);
  }
  return notes;
}

}  // namespace portcheck::store

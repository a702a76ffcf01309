#pragma once
// A remote store of cache entries, modelled on sccache's storage backends: get and put of opaque
// bytes under (kind, key), each call bounded by a timeout. One file per backend: redis_store.cpp,
// http_store.cpp; the local disk tier is the caches' own folders (local_tier.h). A backend is used
// from one thread at a time (the shared tier gives reads and the write-behind queue one each).
#include <chrono>
#include <memory>
#include <string>

#include "store/remote_url.h"

namespace portcheck::store {

struct StoreGet {
  enum class Status { Hit, Miss, Failed } status = Status::Miss;
  std::string bytes;  // Hit: the stored value
  std::string error;  // Failed: what went wrong (refused, timed out, an HTTP status)
};

class StoreBackend {
 public:
  virtual ~StoreBackend() = default;
  virtual StoreGet get(const std::string& kind, const std::string& key) = 0;
  // False with `error` when the value was not stored.
  virtual bool put(const std::string& kind, const std::string& key, const std::string& bytes, std::string& error) = 0;
  // Where an entry lives in the store, for the docs and notes: redis key or URL.
  virtual std::string locate(const std::string& kind, const std::string& key) const = 0;
};

std::unique_ptr<StoreBackend> makeRedisStore(const RemoteUrl& url, std::chrono::milliseconds timeout);
std::unique_ptr<StoreBackend> makeHttpStore(const RemoteUrl& url, std::chrono::milliseconds timeout);
inline std::unique_ptr<StoreBackend> makeRemoteStore(const RemoteUrl& url, std::chrono::milliseconds timeout) {
  return url.scheme == RemoteUrl::Scheme::Redis ? makeRedisStore(url, timeout) : makeHttpStore(url, timeout);
}

}  // namespace portcheck::store

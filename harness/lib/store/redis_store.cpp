// Redis backend (hiredis): one key per entry, "port-check/<kind>/<key>" (ccache's redis storage keys
// "ccache:<key>"), SET without expiry: the server's maxmemory and maxmemory-policy allkeys-lru bound it.
#include <hiredis/hiredis.h>

#include <sys/time.h>

#include <string>

#include "store/store_backend.h"

namespace portcheck::store {

namespace {

class RedisStore final : public StoreBackend {
 public:
  RedisStore(RemoteUrl url, std::chrono::milliseconds timeout) : url_(std::move(url)), timeout_(timeout) {}
  ~RedisStore() override {
    if (ctx_) redisFree(ctx_);
  }

  StoreGet get(const std::string& kind, const std::string& key) override {
    StoreGet g;
    if (!connect(g.error)) {
      g.status = StoreGet::Status::Failed;
      return g;
    }
    const std::string k = locate(kind, key);
    auto* r = static_cast<redisReply*>(redisCommand(ctx_, "GET %b", k.data(), k.size()));
    if (!r) {
      g.status = StoreGet::Status::Failed;
      g.error = lostConnection();
      return g;
    }
    if (r->type == REDIS_REPLY_STRING) {
      g.status = StoreGet::Status::Hit;
      g.bytes.assign(r->str, r->len);
    } else if (r->type == REDIS_REPLY_NIL) {
      g.status = StoreGet::Status::Miss;
    } else {
      g.status = StoreGet::Status::Failed;
      g.error = r->type == REDIS_REPLY_ERROR ? std::string(r->str, r->len) : "unexpected reply to GET";
    }
    freeReplyObject(r);
    return g;
  }

  bool put(const std::string& kind, const std::string& key, const std::string& bytes, std::string& error) override {
    if (!connect(error)) return false;
    const std::string k = locate(kind, key);
    auto* r = static_cast<redisReply*>(redisCommand(ctx_, "SET %b %b", k.data(), k.size(), bytes.data(), bytes.size()));
    if (!r) {
      error = lostConnection();
      return false;
    }
    const bool ok = r->type == REDIS_REPLY_STATUS;
    if (!ok) error = r->type == REDIS_REPLY_ERROR ? std::string(r->str, r->len) : "unexpected reply to SET";
    freeReplyObject(r);
    return ok;
  }

  std::string locate(const std::string& kind, const std::string& key) const override {
    return "port-check/" + kind + "/" + key;
  }

 private:
  bool connect(std::string& error) {
    if (ctx_) return true;
    timeval tv{static_cast<time_t>(timeout_.count() / 1000), static_cast<suseconds_t>((timeout_.count() % 1000) * 1000)};
    ctx_ = redisConnectWithTimeout(url_.host.c_str(), url_.port, tv);
    if (!ctx_ || ctx_->err) {
      error = "cannot connect to " + url_.display + (ctx_ ? std::string(": ") + ctx_->errstr : "");
      if (ctx_) redisFree(ctx_);
      ctx_ = nullptr;
      return false;
    }
    redisSetTimeout(ctx_, tv);  // every command after the connect within the same bound
    if (url_.db != 0) {
      auto* r = static_cast<redisReply*>(redisCommand(ctx_, "SELECT %d", url_.db));
      const bool ok = r && r->type == REDIS_REPLY_STATUS;
      if (r) freeReplyObject(r);
      if (!ok) {
        error = "cannot select database " + std::to_string(url_.db) + " of " + url_.display;
        redisFree(ctx_);
        ctx_ = nullptr;
        return false;
      }
    }
    return true;
  }

  // After a failed command the context is unusable: the next call connects again.
  std::string lostConnection() {
    std::string why = ctx_ && ctx_->err ? std::string(ctx_->errstr) : "no reply";
    if (ctx_) redisFree(ctx_);
    ctx_ = nullptr;
    return url_.display + ": " + why;
  }

  RemoteUrl url_;
  std::chrono::milliseconds timeout_;
  redisContext* ctx_ = nullptr;
};

}  // namespace

std::unique_ptr<StoreBackend> makeRedisStore(const RemoteUrl& url, std::chrono::milliseconds timeout) {
  return std::make_unique<RedisStore>(url, timeout);
}

}  // namespace portcheck::store

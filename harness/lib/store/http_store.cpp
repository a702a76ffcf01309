// Plain HTTP backend (libcurl): GET and PUT of <base>/<kind>/<key[0:2]>/<key>, the layout sccache's
// WebDAV storage and ccache's http storage (layout "subdirs") use, which nginx with dav_methods PUT
// and create_full_put_path serves; or, with `|layout=bazel`, <base>/ac/<64 hex digits>, ccache's
// layout for a Bazel HTTP cache (bazel-remote with its action-cache validation off, as ccache asks).
// 404 is a miss; any other failure is an error.
#include <curl/curl.h>

#include <algorithm>
#include <mutex>
#include <string>

#include <cstdio>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

#include "store/store_backend.h"

namespace portcheck::store {

namespace {

std::size_t appendHttpBody(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

struct HttpUpload {
  const std::string* bytes;
  std::size_t offset = 0;
};

std::size_t readHttpUpload(char* buffer, std::size_t size, std::size_t n, void* in) {
  auto* up = static_cast<HttpUpload*>(in);
  std::size_t len = std::min(size * n, up->bytes->size() - up->offset);
  std::copy_n(up->bytes->data() + up->offset, len, buffer);
  up->offset += len;
  return len;
}

// 64 hex digits, as a Bazel action-cache key is: the key itself, followed by the XXH3-128 of
// "<kind>/<key>" as often as it takes (so the kind is part of the name).
std::string bazelKey(const std::string& kind, const std::string& key) {
  const std::string tagged = kind + "/" + key;
  const XXH128_hash_t h = XXH3_128bits(tagged.data(), tagged.size());
  char tail[33];
  std::snprintf(tail, sizeof tail, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  std::string out = key.substr(0, 64);
  while (out.size() < 64) out += std::string(tail).substr(0, 64 - out.size());
  return out;
}

class HttpStore final : public StoreBackend {
 public:
  HttpStore(RemoteUrl url, std::chrono::milliseconds timeout) : url_(std::move(url)), timeout_(timeout) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    curl_ = curl_easy_init();
  }
  ~HttpStore() override {
    if (curl_) curl_easy_cleanup(curl_);
  }

  StoreGet get(const std::string& kind, const std::string& key) override {
    StoreGet g;
    g.status = StoreGet::Status::Failed;
    if (!curl_) {
      g.error = "cannot start libcurl";
      return g;
    }
    const std::string url = locate(kind, key);
    curl_easy_reset(curl_);
    common(url);
    curl_easy_setopt(curl_, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, appendHttpBody);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &g.bytes);
    long status = 0;
    if (!perform(url, status, g.error)) return g;
    if (status == 200) g.status = StoreGet::Status::Hit;
    else if (status == 404) g.status = StoreGet::Status::Miss;
    else g.error = "GET " + url + ": HTTP " + std::to_string(status);
    if (g.status != StoreGet::Status::Hit) g.bytes.clear();
    return g;
  }

  bool put(const std::string& kind, const std::string& key, const std::string& bytes, std::string& error) override {
    if (!curl_) {
      error = "cannot start libcurl";
      return false;
    }
    const std::string url = locate(kind, key);
    curl_easy_reset(curl_);
    common(url);
    HttpUpload up{&bytes};
    std::string ignored;
    curl_easy_setopt(curl_, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl_, CURLOPT_READFUNCTION, readHttpUpload);
    curl_easy_setopt(curl_, CURLOPT_READDATA, &up);
    curl_easy_setopt(curl_, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(bytes.size()));
    curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, appendHttpBody);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &ignored);
    long status = 0;
    if (!perform(url, status, error)) return false;
    if (status >= 200 && status < 300) return true;
    error = "PUT " + url + ": HTTP " + std::to_string(status);
    return false;
  }

  std::string locate(const std::string& kind, const std::string& key) const override {
    if (url_.layout == RemoteUrl::Layout::Bazel) return url_.base + "ac/" + bazelKey(kind, key);
    return url_.base + kind + "/" + key.substr(0, 2) + "/" + key;
  }

 private:
  void common(const std::string& url) {
    curl_easy_setopt(curl_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout_.count()));
    curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_.count()));
    curl_easy_setopt(curl_, CURLOPT_PROXY, "");  // loopback and team stores: never through a proxy
  }

  bool perform(const std::string& url, long& status, std::string& error) {
    CURLcode rc = curl_easy_perform(curl_);
    if (rc != CURLE_OK) {
      error = url + ": " + curl_easy_strerror(rc);
      return false;
    }
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &status);
    return true;
  }

  RemoteUrl url_;
  std::chrono::milliseconds timeout_;
  CURL* curl_ = nullptr;
};

}  // namespace

std::unique_ptr<StoreBackend> makeHttpStore(const RemoteUrl& url, std::chrono::milliseconds timeout) {
  return std::make_unique<HttpStore>(url, timeout);
}

}  // namespace portcheck::store

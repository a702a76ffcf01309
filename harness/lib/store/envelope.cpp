#include "store/envelope.h"

#include <sstream>

#include "compiler/content_hash.h"

namespace portcheck::store {

namespace {
constexpr std::string_view kEnvelopeMagic = "port-check-cache";
constexpr int kEnvelopeVersion = 1;
}  // namespace

std::string wrapEnvelope(std::string_view kind, std::string_view key, std::string_view payload) {
  std::string out;
  out.reserve(payload.size() + 128);
  out.append(kEnvelopeMagic).append(" ").append(std::to_string(kEnvelopeVersion)).append(" ");
  out.append(kind).append(" ").append(key).append(" ").append(contentHash(payload)).append(" ");
  out.append(std::to_string(payload.size())).append("\n").append(payload);
  return out;
}

std::optional<std::string> openEnvelope(std::string_view bytes, std::string_view kind, std::string_view key,
                                        std::string& why) {
  std::size_t eol = bytes.find('\n');
  if (eol == std::string_view::npos || eol > 512) {
    why = "not a port-check cache entry (no envelope header)";
    return std::nullopt;
  }
  std::istringstream header{std::string(bytes.substr(0, eol))};
  std::string magic, got_kind, got_key, hash;
  int version = 0;
  std::size_t size = 0;
  if (!(header >> magic >> version >> got_kind >> got_key >> hash >> size) || magic != kEnvelopeMagic) {
    why = "not a port-check cache entry (bad envelope header)";
    return std::nullopt;
  }
  if (version != kEnvelopeVersion) {
    why = "envelope version " + std::to_string(version) + " from another port-check";
    return std::nullopt;
  }
  if (got_kind != kind || got_key != key) {
    why = "a foreign entry (" + got_kind + " " + got_key.substr(0, 12) + ") under this key";
    return std::nullopt;
  }
  std::string_view payload = bytes.substr(eol + 1);
  if (payload.size() != size) {
    why = "truncated: " + std::to_string(payload.size()) + " of " + std::to_string(size) + " bytes";
    return std::nullopt;
  }
  if (contentHash(payload) != hash) {
    why = "content hash mismatch (corrupt entry)";
    return std::nullopt;
  }
  return std::string(payload);
}

}  // namespace portcheck::store

#pragma once
// The envelope every remote entry travels in: one header line naming the format, the cache kind
// ("compile", "run", "lint"), the entry's key, the SHA-1 and the size of the payload, then the
// payload (the local cache entry's JSON, which carries its own schema and key again):
//   port-check-cache 1 <kind> <key> <sha1> <bytes>\n<payload>
// A value that is not such an envelope, or of another kind or key, or whose payload does not hash
// to its header, is rejected with the reason: the shared tier counts it as a miss with a note.
#include <optional>
#include <string>
#include <string_view>

namespace portcheck::store {

std::string wrapEnvelope(std::string_view kind, std::string_view key, std::string_view payload);

// The payload when `bytes` is an intact envelope for (kind, key); nullopt with `why` otherwise.
std::optional<std::string> openEnvelope(std::string_view bytes, std::string_view kind, std::string_view key,
                                        std::string& why);

}  // namespace portcheck::store

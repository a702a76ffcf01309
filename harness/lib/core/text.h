#pragma once
// Text helpers shared by parsers and emitters.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace portcheck {

// Replaces every invalid UTF-8 sequence with U+FFFD, so no emitter ever throws on compiler bytes.
std::string sanitizeUtf8(std::string_view text);
bool isValidUtf8(std::string_view text);
// Byte offset of the first invalid UTF-8 sequence, or std::string_view::npos when the text is valid.
std::size_t firstInvalidUtf8(std::string_view text);

// Number of Unicode code points in a UTF-8 byte range (invalid bytes count one each).
int codePointCount(std::string_view text);

std::string_view trim(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);
bool endsWith(std::string_view s, std::string_view suffix);
std::vector<std::string_view> splitLines(std::string_view text);  // handles \n and \r\n
std::string toLower(std::string_view s);
std::string replaceAll(std::string s, std::string_view from, std::string_view to);

// The decimal integer `s` is (an optional '-', then digits, nothing else), or nullopt when it is not
// one or does not fit in 64 bits. Never throws: compiler output can carry any digit string.
std::optional<std::int64_t> parseInt64(std::string_view s);
// parseInt64 for a line, column or count: `fallback` when it is not a number or does not fit in int.
int parseIntOr(std::string_view s, int fallback = 0);

}  // namespace portcheck

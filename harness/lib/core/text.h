#pragma once
// Text helpers shared by parsers and emitters.
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

}  // namespace portcheck

#include "core/text.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>

namespace portcheck {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when invalid.
std::size_t validSequenceLength(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t len = 0;
  unsigned min = 0;
  unsigned cp = 0;
  if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
  else return 0;
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string sanitizeUtf8(std::string_view s) {
  const std::size_t bad = firstInvalidUtf8(s);
  if (bad == std::string_view::npos) return std::string(s);  // nearly every message: one pass, one copy
  std::string out(s.substr(0, bad));
  out.reserve(s.size() + 8);
  for (std::size_t i = bad; i < s.size();) {
    std::size_t n = validSequenceLength(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

bool isValidUtf8(std::string_view s) { return firstInvalidUtf8(s) == std::string_view::npos; }

namespace {

// From `i`, the first byte that is not ASCII (or the end), eight bytes at a time.
std::size_t skipAscii(std::string_view s, std::size_t i) {
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, s.data() + i, sizeof word);
    if (word & 0x8080808080808080ull) break;
  }
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

}  // namespace

std::size_t firstInvalidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      i = skipAscii(s, i);
      continue;
    }
    std::size_t n = validSequenceLength(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

int codePointCount(std::string_view s) {
  int count = 0;
  for (std::size_t i = 0; i < s.size(); ++count) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {  // ASCII: most of every source file, one code point a byte
      std::size_t end = skipAscii(s, i);
      count += static_cast<int>(end - i) - 1;
      i = end;
      continue;
    }
    std::size_t n = validSequenceLength(s, i);
    i += n == 0 ? 1 : n;
  }
  return count;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool endsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

std::string toLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string replaceAll(std::string s, std::string_view from, std::string_view to) {
  if (from.empty()) return s;
  for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
  return s;
}

std::optional<std::int64_t> parseInt64(std::string_view s) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

int parseIntOr(std::string_view s, int fallback) {
  std::optional<std::int64_t> v = parseInt64(s);
  if (!v || *v > std::numeric_limits<int>::max() || *v < std::numeric_limits<int>::min()) return fallback;
  return static_cast<int>(*v);
}

}  // namespace portcheck

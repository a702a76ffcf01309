#include "compiler/compile_text.h"

#include <cctype>
#include <regex>

#include "core/text.h"

namespace portcheck {

std::string stripAnsi(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\x1b') {
      out += text[i];
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '[') {  // CSI: parameters, then a final byte 0x40-0x7e
      std::size_t j = i + 2;
      while (j < text.size() && !(text[j] >= 0x40 && text[j] <= 0x7e)) ++j;
      i = j;
    } else if (i + 1 < text.size() && text[i + 1] == ']') {  // OSC: until BEL or ESC backslash
      std::size_t j = i + 2;
      while (j < text.size() && text[j] != '\x07' && !(text[j] == '\x1b' && j + 1 < text.size() && text[j + 1] == '\\'))
        ++j;
      i = (j < text.size() && text[j] == '\x1b') ? j + 1 : j;
    } else {
      ++i;  // two-byte escape
    }
  }
  return out;
}

std::vector<std::string> logLines(std::string_view log) {
  std::string clean = stripAnsi(sanitizeUtf8(log));
  std::vector<std::string> out;
  for (std::string_view l : splitLines(clean)) {
    // No compiler diagnostic is this long; the cap keeps every per-line regex cheap and shallow.
    std::string s(l.substr(0, kMaxLogLineBytes));
    if (!s.empty() && s.back() == '\r') s.pop_back();
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<LoggerLine> parseLoggerLine(std::string_view line) {
  if (line.size() < 26 || !std::isdigit(static_cast<unsigned char>(line[0]))) return std::nullopt;
  static const std::regex kPrefix(R"(^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? ([DIWEFVN]) \| ?)");
  std::match_results<std::string_view::const_iterator> m;
  std::string_view head = line.substr(0, 48);
  if (!std::regex_search(head.begin(), head.end(), m, kPrefix, std::regex_constants::match_continuous))
    return std::nullopt;
  LoggerLine l;
  l.level = m[1].str()[0];
  l.payload = std::string(line.substr(static_cast<std::size_t>(m.length(0))));
  return l;
}

std::string logPayload(std::string_view line) {
  if (auto l = parseLoggerLine(line)) return l->payload;
  return std::string(line);
}

std::optional<RawLocation> parseRawLocation(std::string_view text) {
  // file:line:col, the file being everything before the last two ':'-separated numbers.
  std::size_t c2 = text.rfind(':');
  if (c2 == std::string_view::npos || c2 == 0) return std::nullopt;
  std::size_t c1 = text.rfind(':', c2 - 1);
  if (c1 == std::string_view::npos || c1 == 0) return std::nullopt;
  auto number = [](std::string_view s) -> std::optional<int> {
    if (s.empty() || s.size() > 9) return std::nullopt;
    int v = 0;
    for (char c : s) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      v = v * 10 + (c - '0');
    }
    return v;
  };
  auto line = number(text.substr(c1 + 1, c2 - c1 - 1));
  auto col = number(text.substr(c2 + 1));
  if (!line || !col) return std::nullopt;
  RawLocation loc;
  loc.file = std::string(text.substr(0, c1));
  loc.line = *line;
  loc.column = *col;
  if (loc.file.empty()) return std::nullopt;
  return loc;
}

std::optional<RawLocation> takeTrailingSpan(std::string& text) {
  std::string_view t = trim(text);
  if (t.empty() || t.back() != ']') return std::nullopt;
  std::size_t open = t.rfind(" [");
  if (open == std::string_view::npos) {
    if (t.front() != '[') return std::nullopt;
    open = 0;
  }
  std::size_t start = open == 0 && t.front() == '[' ? 1 : open + 2;
  auto loc = parseRawLocation(t.substr(start, t.size() - 1 - start));
  if (!loc) return std::nullopt;
  text = std::string(trim(t.substr(0, open)));
  return loc;
}

std::optional<RawLocation> takeTrailingAt(std::string& text) {
  std::string_view t = trim(text);
  std::size_t at = t.rfind(" at ");
  if (at == std::string_view::npos) return std::nullopt;
  auto loc = parseRawLocation(t.substr(at + 4));
  if (!loc || loc->file.find(' ') != std::string::npos) return std::nullopt;
  text = std::string(trim(t.substr(0, at)));
  return loc;
}

std::optional<RawCheckFailed> parseCheckFailedLine(std::string_view line) {
  std::string_view l = trim(line);
  if (!startsWith(l, "Check failed: ")) return std::nullopt;
  l.remove_prefix(14);
  std::size_t at = l.rfind(" at ");
  RawCheckFailed cf;
  if (at == std::string_view::npos) {
    cf.expr = std::string(l);
    return cf;
  }
  cf.expr = std::string(l.substr(0, at));
  std::string_view where = l.substr(at + 4);
  std::size_t colon = where.rfind(':');
  if (colon != std::string_view::npos) {
    cf.source = std::string(where.substr(0, colon));
    try {
      cf.line = std::stoi(std::string(where.substr(colon + 1)));
    } catch (...) {
      cf.source = std::string(where);
    }
  } else {
    cf.source = std::string(where);
  }
  return cf;
}

std::string dropCppTraceback(std::string_view text) {
  std::size_t p = text.find("C++ Traceback (most recent call last):");
  if (p == std::string_view::npos) return std::string(text);
  return std::string(text.substr(0, p));
}

CppMessage splitCppMessage(std::string_view text) {
  CppMessage m;
  std::string body = dropCppTraceback(text);
  std::vector<std::string> before, after;
  bool seen = false;
  for (std::string_view l : splitLines(body)) {
    if (!seen) {
      if (auto cf = parseCheckFailedLine(l)) {
        m.check_failed = RawCheckFailed{cf->expr, cf->source, cf->line};
        seen = true;
        continue;
      }
      before.emplace_back(l);
    } else {
      after.emplace_back(l);
    }
  }
  std::string payload;
  for (std::size_t i = 0; i < before.size(); ++i) payload += (i ? "\n" : "") + before[i];
  m.payload = trimCopy(payload);
  std::string rest;
  for (std::size_t i = 0; i < after.size(); ++i) rest += (i ? "\n" : "") + after[i];
  m.after = trimCopy(rest);
  return m;
}

std::string trimCopy(std::string_view s) { return std::string(trim(s)); }

std::vector<std::string> lastLines(const std::vector<std::string>& lines, std::size_t n) {
  std::vector<std::string> out;
  for (auto it = lines.rbegin(); it != lines.rend() && out.size() < n; ++it)
    if (!trim(*it).empty()) out.insert(out.begin(), *it);
  return out;
}

}  // namespace portcheck

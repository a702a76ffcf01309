#include "skills/frontmatter.h"

#include <regex>

#include "core/text.h"

namespace portcheck {
namespace {

bool isIndented(std::string_view line) { return !line.empty() && (line[0] == ' ' || line[0] == '\t'); }

bool isBlank(std::string_view line) { return trim(line).empty(); }

// Strips a plain scalar's trailing ` # comment` and surrounding quotes.
std::string unquote(std::string_view raw) {
  std::string_view v = trim(raw);
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
    std::string out;
    for (std::size_t i = 1; i + 1 < v.size(); ++i) {
      if (v[i] == '\\' && i + 2 < v.size()) {
        char c = v[++i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
      } else {
        out += v[i];
      }
    }
    return out;
  }
  if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'') return replaceAll(std::string(v.substr(1, v.size() - 2)), "''", "'");
  std::size_t hash = v.find(" #");
  if (hash != std::string_view::npos) v = trim(v.substr(0, hash));
  return std::string(v);
}

bool isBlockIndicator(std::string_view v) {
  return v == ">" || v == ">-" || v == ">+" || v == "|" || v == "|-" || v == "|+";
}

// `{a: b, c: "d"}` -> map; false when the text is not a flat flow mapping.
bool parseFlowMap(std::string_view v, std::map<std::string, std::string>& out) {
  v = trim(v);
  if (v.size() < 2 || v.front() != '{' || v.back() != '}') return false;
  std::string_view inner = v.substr(1, v.size() - 2);
  std::size_t pos = 0;
  while (pos < inner.size()) {
    std::size_t comma = inner.find(',', pos);
    std::string_view item = trim(inner.substr(pos, comma == std::string_view::npos ? inner.npos : comma - pos));
    pos = comma == std::string_view::npos ? inner.size() : comma + 1;
    if (item.empty()) continue;
    std::size_t colon = item.find(':');
    if (colon == std::string_view::npos) return false;
    out[std::string(trim(item.substr(0, colon)))] = unquote(item.substr(colon + 1));
  }
  return true;
}

}  // namespace

const FrontmatterEntry* Frontmatter::find(std::string_view key) const {
  for (const FrontmatterEntry& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

Frontmatter parseFrontmatter(std::string_view text) {
  Frontmatter fm;
  std::vector<std::string_view> lines = splitLines(text);
  auto isFence = [](std::string_view l) { return trim(l) == "---"; };
  if (lines.empty() || !isFence(lines[0]) || isIndented(lines[0])) {
    fm.error = "SKILL.md does not start with a '---' frontmatter line";
    fm.error_line = 1;
    return fm;
  }
  std::size_t close = 0;
  for (std::size_t i = 1; i < lines.size(); ++i)
    if (!isIndented(lines[i]) && isFence(lines[i])) {
      close = i;
      break;
    }
  if (close == 0) {
    fm.error = "the frontmatter block opened on line 1 is never closed by a '---' line";
    fm.error_line = 1;
    return fm;
  }
  static const std::regex kKey(R"(^([A-Za-z0-9_-]+):(?:\s+(.*)|\s*)$)");
  static const std::regex kNested(R"(^\s+([A-Za-z0-9_.-]+):(?:\s+(.*)|\s*)$)");
  for (std::size_t i = 1; i < close;) {
    std::string line(lines[i]);
    int lineno = static_cast<int>(i) + 1;
    if (isBlank(line) || trim(line).front() == '#') {
      ++i;
      continue;
    }
    std::smatch m;
    if (isIndented(line) || !std::regex_match(line, m, kKey)) {
      fm.error = "frontmatter line is not 'key: value': " + std::string(trim(line));
      fm.error_line = lineno;
      return fm;
    }
    FrontmatterEntry e;
    e.key = m[1];
    e.line = lineno;
    std::string value = m[2].matched ? std::string(trim(m[2].str())) : std::string();
    ++i;
    if (value.empty()) {
      // A nested mapping (indented `sub: value` lines), or an empty scalar.
      while (i < close && (isIndented(lines[i]) || isBlank(lines[i]))) {
        if (isBlank(lines[i])) {
          ++i;
          continue;
        }
        std::string sub(lines[i]);
        std::smatch sm;
        if (!std::regex_match(sub, sm, kNested)) {
          fm.error = "indented frontmatter line under '" + e.key + ":' is not 'key: value': " + std::string(trim(sub));
          fm.error_line = static_cast<int>(i) + 1;
          return fm;
        }
        e.is_map = true;
        e.map[sm[1]] = sm[2].matched ? unquote(sm[2].str()) : std::string();
        e.map_lines[sm[1]] = static_cast<int>(i) + 1;
        ++i;
      }
    } else if (isBlockIndicator(value)) {
      bool folded = value[0] == '>';
      std::string joined;
      while (i < close && (isIndented(lines[i]) || isBlank(lines[i]))) {
        std::string_view part = trim(lines[i]);
        if (!joined.empty()) joined += folded ? (part.empty() ? "\n" : " ") : "\n";
        joined += part;
        ++i;
      }
      e.value = std::string(trim(joined));
    } else if (value.front() == '{') {
      if (!parseFlowMap(value, e.map)) {
        fm.error = "frontmatter flow mapping for '" + e.key + "' is not '{key: value, ...}'";
        fm.error_line = lineno;
        return fm;
      }
      e.is_map = true;
      for (const auto& [k, v] : e.map) e.map_lines[k] = lineno;
    } else {
      e.value = unquote(value);
    }
    fm.entries.push_back(std::move(e));
  }
  fm.ok = true;
  fm.body_first_line = static_cast<int>(close) + 2;
  fm.body_lines = static_cast<int>(lines.size() - close - 1);
  return fm;
}

}  // namespace portcheck

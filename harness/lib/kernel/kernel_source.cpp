#include "kernel/kernel_source.h"

#include <algorithm>
#include <array>

#include "kernel/instruction_set.h"

namespace portcheck::kernel {

namespace {

// Qualifier and attribute macros of the CCE dialect (pto-isa include/pto/common/cpu_stub.hpp:36-49 defines
// them as empty on the CPU simulator) and the pto-isa function-attribute macros.
constexpr std::array<std::string_view, 20> kCceKeywords = {
    "__global__", "__aicore__", "AICORE",    "__gm__",     "__ubuf__",     "__cbuf__", "__ca__",
    "__cb__",     "__cc__",     "__fbuf__",  "__biasbuf__", "__in__",      "__out__",  "__tf__",
    "PTO_INST",   "PTO_INTERNAL", "PTO_INLINE", "__inline__", "__sync_alias__", "__simt_vf__"};

bool isIdentChar(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// Blanks `<<<...>>>` (the CCE/CUDA kernel launch) so `k<<<n, s>>>(args)` parses as the call `k(args)`.
void blankLaunchChevrons(std::string& s) {
  for (std::size_t pos = 0; (pos = s.find("<<<", pos)) != std::string::npos;) {
    std::size_t end = s.find(">>>", pos + 3);
    std::size_t line_end = s.find(';', pos);
    if (end == std::string::npos || (line_end != std::string::npos && line_end < end)) {
      pos += 3;
      continue;
    }
    for (std::size_t i = pos; i < end + 3; ++i)
      if (s[i] != '\n') s[i] = ' ';
    pos = end + 3;
  }
}

// Blanks a file-scope macro invocation that stands alone on a line without a semicolon, e.g.
// `TFA_FOR_EACH_CASE(INSTANTIATE_TFA)`: valid after preprocessing, not parseable as C++.
void blankBareMacroLines(std::string& s) {
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    std::size_t i = start;
    bool upper = i < end && ((s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_');
    while (upper && i < end && (isIdentChar(s[i]) && !(s[i] >= 'a' && s[i] <= 'z'))) ++i;
    std::size_t last = end;
    while (last > i && (s[last - 1] == ' ' || s[last - 1] == '\r' || s[last - 1] == '\t')) --last;
    if (upper && i > start && i < end && s[i] == '(' && last > i && s[last - 1] == ')' &&
        s.find_first_of(";{}", start) >= end && (start == 0 || s[start - 2 < start ? start - 2 : 0] != '\\'))
      std::fill(s.begin() + static_cast<long>(start), s.begin() + static_cast<long>(last), ' ');
    start = end + 1;
  }
}

}  // namespace

bool isCceKeyword(std::string_view name) {
  return std::find(kCceKeywords.begin(), kCceKeywords.end(), name) != kCceKeywords.end();
}

namespace {

// Start of the line `lines` lines above the one holding `at` (0 = its own line).
std::size_t linesBack(std::string_view text, std::size_t at, int lines) {
  std::size_t from = std::min(at, text.size());
  for (int i = 0; i <= lines && from > 0; ++i) {
    std::size_t nl = text.rfind('\n', from - 1);
    if (nl == std::string_view::npos) return 0;
    from = i == lines ? nl + 1 : nl;
  }
  return from;
}

// A directive line (`#if`, `#define`, ...) or a statement macro alone on its line (`__VEC_SCOPE__`).
bool hasDirectiveOrStatementMacro(std::string_view w) {
  std::size_t start = 0;
  while (start < w.size()) {
    std::size_t end = w.find('\n', start);
    if (end == std::string_view::npos) end = w.size();
    std::string_view line = w.substr(start, end - start);
    std::size_t a = line.find_first_not_of(" \t\r");
    std::size_t b = line.find_last_not_of(" \t\r");
    if (a != std::string_view::npos) {
      std::string_view t = line.substr(a, b - a + 1);
      if (t[0] == '#') return true;
      if (t.size() > 4 && t.starts_with("__") && t.ends_with("__") &&
          std::all_of(t.begin(), t.end(), [](char c) { return (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'); }))
        return true;
    }
    start = end + 1;
  }
  return false;
}

}  // namespace

bool preprocessorMayExplain(std::string_view text, std::size_t begin, std::size_t end, std::size_t unit_begin,
                            std::size_t unit_end) {
  begin = std::min(begin, text.size());
  end = std::min(std::max(end, begin), text.size());
  if (unit_begin < unit_end && unit_end <= text.size() &&
      hasDirectiveOrStatementMacro(text.substr(unit_begin, unit_end - unit_begin)))
    return true;
  std::size_t from = linesBack(text, begin, 2);
  if (unit_begin < from && unit_begin >= linesBack(text, begin, 8)) from = unit_begin;
  std::size_t to = text.find('\n', end);
  if (to != std::string_view::npos) to = text.find('\n', to + 1);  // and the line after
  std::string_view w = text.substr(from, (to == std::string_view::npos ? text.size() : to) - from);
  for (std::size_t nl = w.find('\n'); nl != std::string_view::npos; nl = w.find('\n', nl + 1)) {
    std::size_t p = nl;
    while (p > 0 && (w[p - 1] == ' ' || w[p - 1] == '\t' || w[p - 1] == '\r')) --p;
    if (p > 0 && w[p - 1] == '\\') return true;  // a line of a multi-line #define body
  }
  bool line_start = true;
  for (std::size_t i = 0; i < w.size();) {
    char c = w[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (line_start && c == '#') return true;  // a directive
    bool was_line_start = line_start;
    line_start = false;
    if (!isIdentChar(c) || (c >= '0' && c <= '9')) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < w.size() && isIdentChar(w[j])) ++j;
    std::string_view word = w.substr(i, j - i);
    std::size_t k = j;
    while (k < w.size() && (w[k] == ' ' || w[k] == '\t')) ++k;
    bool upper = word.size() >= 2 && std::none_of(word.begin(), word.end(), [](char ch) { return ch >= 'a' && ch <= 'z'; }) &&
                 std::any_of(word.begin(), word.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
    if (upper && k < w.size() && w[k] == '(' && !findInstruction(word)) return true;  // function-like macro
    if (upper && was_line_start && word.starts_with("__") && word.ends_with("__")) {
      std::size_t e = k;
      if (e >= w.size() || w[e] == '\n' || w[e] == '\r' || w[e] == '{') return true;  // statement macro
    }
    if (word == "typename") {  // `typename T::X(v)`: a functional cast the grammar rejects
      std::size_t e = k;
      while (e < w.size() && (isIdentChar(w[e]) || w[e] == ':' || w[e] == ' ')) ++e;
      if (e < w.size() && w[e] == '(' && w.substr(k, e - k).find("::") != std::string_view::npos) return true;
    }
    if (word == "else" && w.substr(k).starts_with("if") && w.substr(k + 2).find_first_not_of(" \t") != std::string_view::npos &&
        w.substr(k + 2 + w.substr(k + 2).find_first_not_of(" \t")).starts_with("constexpr"))
      return true;
    i = j;
  }
  return false;
}

bool containsWord(std::string_view text, std::string_view word) {
  for (std::size_t pos = 0; (pos = text.find(word, pos)) != std::string_view::npos; pos += word.size()) {
    bool left = pos == 0 || !isIdentChar(text[pos - 1]);
    bool right = pos + word.size() >= text.size() || !isIdentChar(text[pos + word.size()]);
    if (left && right) return true;
  }
  return false;
}

std::string parseableText(std::string_view text) {
  std::string s(text);
  std::size_t i = 0;
  bool line_start = true;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') line_start = true;
    else if (line_start && c == '#') {
      // Directive lines keep their macro names (#ifndef PTO_INLINE, #define AICORE ...).
      while (i < s.size() && !(s[i] == '\n' && s[i - 1] != '\\')) ++i;
      continue;
    } else if (c != ' ' && c != '\t' && c != '\r') line_start = false;
    if (!isIdentChar(c) || (i > 0 && isIdentChar(s[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && isIdentChar(s[j])) ++j;
    if (isCceKeyword(std::string_view(s).substr(i, j - i)))
      std::fill(s.begin() + static_cast<long>(i), s.begin() + static_cast<long>(j), ' ');
    i = j;
  }
  blankLaunchChevrons(s);
  blankBareMacroLines(s);
  return s;
}

}  // namespace portcheck::kernel

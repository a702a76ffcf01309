#include "kernel/kernel_source.h"

#include <algorithm>
#include <array>

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

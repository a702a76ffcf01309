#include "kernel/code_words.h"

namespace portcheck::kernel {

namespace {

bool isWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// One past the end of the line holding `i`, backslash-continued lines included.
std::size_t logicalLineEnd(std::string_view t, std::size_t i) {
  for (;;) {
    std::size_t nl = t.find('\n', i);
    if (nl == std::string_view::npos) return t.size();
    std::size_t last = nl;
    if (last > i && t[last - 1] == '\r') --last;
    if (last == i || t[last - 1] != '\\') return nl + 1;
    i = nl + 1;
  }
}

// One past the closing quote of the literal opening at `i`, or npos when it is not closed on its line.
std::size_t literalEnd(std::string_view t, std::size_t i) {
  const char q = t[i];
  for (std::size_t j = i + 1; j < t.size(); ++j) {
    if (t[j] == '\\') {
      ++j;
      continue;
    }
    if (t[j] == '\n') return std::string_view::npos;
    if (t[j] == q) return j + 1;
  }
  return std::string_view::npos;
}

}  // namespace

CodeWords codeWords(std::string_view t) {
  CodeWords out;
  bool line_start = true;
  std::size_t define_end = 0;  // the #define body being read ends here
  for (std::size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    const bool directive = line_start && c == '#';
    line_start = false;
    if (directive) {
      std::size_t j = i + 1;
      while (j < t.size() && (t[j] == ' ' || t[j] == '\t')) ++j;
      std::size_t name_end = j;
      while (name_end < t.size() && isWordByte(t[name_end])) ++name_end;
      std::string_view name = t.substr(j, name_end - j);
      if (name == "include") {
        std::size_t k = t.find_first_not_of(" \t", name_end);
        if (k != std::string_view::npos && (t[k] == '<' || t[k] == '"')) {
          std::size_t close = t.find(t[k] == '<' ? '>' : '"', k + 1);
          std::size_t eol = t.find('\n', k);
          if (close == std::string_view::npos || close > eol) {
            out.certain = false;
            return out;
          }
          out.includes.push_back(t.substr(k + 1, close - k - 1));
          i = close + 1;
          continue;
        }
      }
      if (name == "define") define_end = logicalLineEnd(t, i);
      i = name_end;
      continue;
    }
    if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
      i = logicalLineEnd(t, i);  // a line comment ending in a backslash runs on
      line_start = true;
      continue;
    }
    if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
      std::size_t end = t.find("*/", i + 2);
      i = end == std::string_view::npos ? t.size() : end + 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      std::size_t end = literalEnd(t, i);
      if (end == std::string_view::npos) {
        out.certain = false;
        return out;
      }
      i = end;
      continue;
    }
    if (isWordByte(c)) {
      std::size_t end = i;
      for (;;) {  // a number's digit separators (1'000) belong to it
        while (end < t.size() && isWordByte(t[end])) ++end;
        if (isDigit(c) && end + 1 < t.size() && t[end] == '\'' && isWordByte(t[end + 1])) {
          ++end;
          continue;
        }
        break;
      }
      std::string_view word = t.substr(i, end - i);
      // A raw string (R"x(...)x", u8R"...") is not read here; an encoding prefix (u8"", L'') starts a literal.
      if (end < t.size() && t[end] == '"' && word.ends_with('R')) {
        out.certain = false;
        return out;
      }
      if (!isDigit(c)) out.words.push_back(CodeWord{word, i, i < define_end});
      i = end;
      continue;
    }
    ++i;
  }
  return out;
}

}  // namespace portcheck::kernel

#include "lint/dsl/source_limits.h"

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "core/text.h"
#include "parse/syntax_tree.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

bool declaresEncoding(const SourceFile& f) {
  for (int line : {1, 2}) {  // PEP 263: `# ... coding[:=] <name>` on line 1 or 2
    std::string_view t = trim(f.lineText(line));
    std::size_t at = t.find("coding");
    if (startsWith(t, "#") && at != std::string_view::npos && at + 6 < t.size() && (t[at + 6] == ':' || t[at + 6] == '='))
      return true;
  }
  return false;
}

Diagnostic problemAt(const SourceFile& f, std::size_t byte, std::string message, std::string hint) {
  auto [line, col] = f.position(byte);
  return makeDiagnostic("DSL001", f.path, line, col, std::move(message), std::move(hint));
}

// One past the end of the string literal whose opening quote is at `i` (or the end of its line when
// it is not closed; tree-sitter reports that one). A backslash always takes the next character, as in
// CPython's tokenizer, raw strings included.
std::size_t skipString(const std::string& t, std::size_t i) {
  const char q = t[i];
  const bool triple = i + 2 < t.size() && t[i + 1] == q && t[i + 2] == q;
  i += triple ? 3 : 1;
  while (i < t.size()) {
    char c = t[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (!triple && c == '\n') return i;
    if (c == q && (!triple || (i + 2 < t.size() && t[i + 1] == q && t[i + 2] == q))) return i + (triple ? 3 : 1);
    ++i;
  }
  return t.size();
}

// Bytes the limit scan passes over: all but newlines, comments, backslashes, quotes and brackets (a string
// prefix such as rb is passed over too; its quote opens the string).
constexpr std::array<bool, 256> kPlainBytes = [] {
  std::array<bool, 256> t{};
  t.fill(true);
  for (unsigned char c : {'\n', '#', '\\', '"', '\'', '(', '[', '{', ')', ']', '}'}) t[c] = false;
  return t;
}();

}  // namespace

std::optional<Diagnostic> pythonSourceLimitProblem(const SourceFile& f) {
  const std::string& t = f.text;
  std::size_t bad = firstInvalidUtf8(t);
  if (bad != std::string_view::npos && !declaresEncoding(f)) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(t[bad]));
    return problemAt(f, bad, std::string("the file is not valid UTF-8 (byte ") + byte + "), so Python cannot read it",
                     "save the file as UTF-8, or declare its encoding on line 1 (# -*- coding: latin-1 -*-)");
  }
  int depth = 0;
  std::vector<int> indents{0};
  bool line_start = true;
  std::size_t i = 0;
  while (i < t.size()) {
    if (line_start) {
      line_start = false;
      if (depth == 0) {  // a logical line starts: measure its indentation as the tokenizer does
        int col = 0;
        std::size_t j = i;
        for (; j < t.size() && (t[j] == ' ' || t[j] == '\t' || t[j] == '\f'); ++j)
          col = t[j] == ' ' ? col + 1 : t[j] == '\t' ? (col / 8 + 1) * 8 : 0;
        bool blank = j >= t.size() || t[j] == '\n' || t[j] == '\r' || t[j] == '#';
        if (!blank) {
          if (col > indents.back()) {
            indents.push_back(col);
            if (static_cast<int>(indents.size()) - 1 > kPythonMaxIndentLevels)
              return problemAt(f, j,
                               "too many levels of indentation (Python allows " +
                                   std::to_string(kPythonMaxIndentLevels) + ")",
                               "move the inner blocks into a helper function");
          } else {
            while (indents.size() > 1 && col < indents.back()) indents.pop_back();
          }
        }
        i = j;
        continue;
      }
    }
    while (i < t.size() && kPlainBytes[static_cast<unsigned char>(t[i])]) ++i;  // names, numbers, operators
    if (i >= t.size()) break;
    char c = t[i];
    if (c == '#') {
      std::size_t eol = t.find('\n', i);
      i = eol == std::string::npos ? t.size() : eol;
    } else if (c == '\n') {
      line_start = true;
      ++i;
    } else if (c == '\\' && i + 1 < t.size() && (t[i + 1] == '\n' || t[i + 1] == '\r')) {
      i += t[i + 1] == '\r' && i + 2 < t.size() && t[i + 2] == '\n' ? 3 : 2;  // explicit line join
    } else if (c == '"' || c == '\'') {
      i = skipString(t, i);
    } else if (c == '(' || c == '[' || c == '{') {
      if (depth >= kPythonMaxBracketNesting)
        return problemAt(f, i,
                         "too many nested parentheses (Python allows " + std::to_string(kPythonMaxBracketNesting) + ")",
                         "split the expression with intermediate variables");
      ++depth;
      ++i;
    } else {
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      ++i;
    }
  }
  return std::nullopt;
}

std::optional<Diagnostic> pythonBracketProblem(const SourceFile& f) {
  const std::string& t = f.text;
  std::vector<std::size_t> open;  // byte offsets of the openers not yet closed
  const std::string hint = "close every bracket where its expression ends; an unclosed one swallows the lines after it";
  for (std::size_t i = 0; i < t.size();) {
    char c = t[i];
    if (c == '#') {
      while (i < t.size() && t[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      i = skipString(t, i);
    } else if (c == '\\') {
      i += 2;
    } else if (c == '(' || c == '[' || c == '{') {
      open.push_back(i++);
    } else if (c == ')' || c == ']' || c == '}') {
      if (open.empty()) return problemAt(f, i, std::string("unmatched '") + c + "'", hint);
      char opener = t[open.back()];
      if ((opener == '(') != (c == ')') || (opener == '[') != (c == ']')) {
        int open_line = f.position(open.back()).first;
        std::string where = open_line == f.position(i).first ? "" : " on line " + std::to_string(open_line);
        return problemAt(f, i,
                         std::string("closing parenthesis '") + c + "' does not match opening parenthesis '" +
                             opener + "'" + where,
                         hint);
      }
      open.pop_back();
      ++i;
    } else {
      ++i;
    }
  }
  if (open.empty()) return std::nullopt;
  // CPython says "never closed" only when its parser stopped on a later line than the innermost
  // unclosed opener (pegen_errors.c); `def f(:` stays "invalid syntax". Close the brackets left open
  // on the opener's line at its end and parse again: an error still on that line or before it is
  // where CPython stops first.
  std::size_t innermost = open.back();
  int open_line = f.position(innermost).first;
  std::size_t eol = t.find('\n', innermost);
  if (eol == std::string::npos) eol = t.size();
  std::size_t comment = eol;
  for (std::size_t i = innermost; i < eol; ++i) {
    if (t[i] == '"' || t[i] == '\'') i = skipString(t, i) - 1;
    else if (t[i] == '#') {
      comment = i;
      break;
    }
  }
  std::size_t insert = comment;
  while (insert > innermost && (t[insert - 1] == ' ' || t[insert - 1] == '\t' || t[insert - 1] == '\r')) --insert;
  std::string closers;
  for (auto it = open.rbegin(); it != open.rend() && f.position(*it).first == open_line; ++it)
    closers += t[*it] == '(' ? ')' : t[*it] == '[' ? ']' : '}';
  std::string closed = t.substr(0, insert) + closers + t.substr(insert);
  SyntaxTree tree = SyntaxTree::parse(Language::Python, closed);
  if (!tree.ok()) return std::nullopt;
  TSNode err = tree.firstError();
  if (!isNull(err) && static_cast<int>(ts_node_start_point(err).row) + 1 <= open_line) return std::nullopt;
  return problemAt(f, innermost, std::string("'") + t[innermost] + "' was never closed", hint);
}

}  // namespace portcheck

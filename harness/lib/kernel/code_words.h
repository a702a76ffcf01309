#pragma once
// The words of C++ text the way a parser sees them, without parsing: identifiers outside comments, string and
// character literals, and the paths of #include lines. Fast enough to decide, before a parse, that a large
// vendored header is no PTO-ISA code (kernel_class.h).
#include <cstddef>
#include <string_view>
#include <vector>

namespace portcheck::kernel {

struct CodeWord {
  std::string_view text;
  std::size_t at = 0;       // byte offset in the text
  bool in_define = false;   // in a #define body, which the grammar keeps as opaque text
};

struct CodeWords {
  // False when the scan met something it does not read as the compiler would (a raw string literal, a literal
  // not closed on its line): its words may then be incomplete.
  bool certain = true;
  std::vector<CodeWord> words;
  std::vector<std::string_view> includes;  // #include paths without their <> or ""
};

CodeWords codeWords(std::string_view text);

}  // namespace portcheck::kernel

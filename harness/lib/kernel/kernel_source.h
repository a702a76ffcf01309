#pragma once
// Prepares kernel text for the C++ grammar: the CCE qualifier macros (__gm__, AICORE, __tf__, ...) and
// the <<<blocks, stream>>> launch syntax are not standard C++, so they are blanked to spaces of the
// same length. Byte offsets stay valid, so positions map back to the user's file unchanged.
#include <string>
#include <string_view>

namespace portcheck::kernel {

// The text the grammar parses: `text` with CCE keywords and launch chevrons replaced by spaces.
std::string parseableText(std::string_view text);

// True when `name` is one of the blanked CCE keywords.
bool isCceKeyword(std::string_view name);

// True when the preprocessor may explain a grammar error in text[begin, end) of a kernel: the lines from two
// before `begin` to the one holding `end` contain a directive (#if, #define, ...), a function-like macro
// invocation (an ALL_CAPS name followed by `(`, such as LAUNCH_KERNEL(k, , (...)) or CONCAT(a, b), other than a
// PTO instruction), a bare ALL_CAPS statement macro (`__VEC_SCOPE__`), or a construct tree-sitter-cpp does not
// parse (`typename T::X(...)` functional casts, `else if constexpr`). tree-sitter parses unpreprocessed text,
// so such errors say nothing about the code; the compile check (ISA009) sees the preprocessed file.
// [unit_begin, unit_end) is the function (or top-level declaration) holding the error: a directive or a
// statement macro anywhere in it explains the error too (braces unbalanced across #if branches, cascades),
// and a declaration head up to eight lines above the error joins the window (`LAUNCH_BOUND(1024) void f(`).
bool preprocessorMayExplain(std::string_view text, std::size_t begin, std::size_t end,
                            std::size_t unit_begin = std::string_view::npos, std::size_t unit_end = std::string_view::npos);

// True when the identifier `word` occurs in `text` as a whole word.
bool containsWord(std::string_view text, std::string_view word);

}  // namespace portcheck::kernel

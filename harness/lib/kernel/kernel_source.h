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

// True when the identifier `word` occurs in `text` as a whole word.
bool containsWord(std::string_view text, std::string_view word);

}  // namespace portcheck::kernel

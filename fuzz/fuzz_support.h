#pragma once
// Shared by the libFuzzer targets: the input as text, splitting one input into several pieces (files
// of a unit) at a separator seed files can spell, and PORTCHECK_FUZZ_TARGET, which defines a target's
// body as portcheckFuzz_<name>() so the unit tests replay the corpus and the regression inputs through
// the same code in every build; only a fuzzer binary (PORTCHECK_FUZZ_BINARY) gets the libFuzzer entry.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#ifdef PORTCHECK_FUZZ_BINARY
#define PORTCHECK_FUZZ_ENTRY(name)                                                  \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    return portcheckFuzz_##name(data, size);                                        \
  }
#else
#define PORTCHECK_FUZZ_ENTRY(name)
#endif
#define PORTCHECK_FUZZ_TARGET(name)                                        \
  int portcheckFuzz_##name(const std::uint8_t* data, std::size_t size); \
  PORTCHECK_FUZZ_ENTRY(name)                                              \
  int portcheckFuzz_##name(const std::uint8_t* data, std::size_t size)

namespace portcheck::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Pieces of `text` separated by lines that are exactly `separator` (at most `max_pieces`; the last
// piece keeps the rest).
inline std::vector<std::string> splitPieces(std::string_view text, std::string_view separator, std::size_t max_pieces) {
  std::vector<std::string> pieces;
  std::string marker = "\n" + std::string(separator) + "\n";
  std::size_t start = 0;
  while (pieces.size() + 1 < max_pieces) {
    std::size_t at = text.find(marker, start);
    if (at == std::string_view::npos) break;
    pieces.emplace_back(text.substr(start, at - start));
    start = at + marker.size();
  }
  pieces.emplace_back(text.substr(start));
  return pieces;
}

}  // namespace portcheck::fuzz

// The on-chip overflow messages (AllocateMemoryAddr CHECK, DSA-RP placement, AutoTileMatmulL0). The
// input is `<exception type>` on the first line and str(exc) after it.
#include "compiler/memory_error_parser.h"
#include "compile_fuzz_support.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(memory_error) {
  using namespace portcheck;
  std::string_view text = fuzz::asText(data, size);
  std::size_t nl = text.find('\n');
  std::string type(text.substr(0, nl));
  std::string message(nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1));
  (void)parseMemoryError(type, message, fuzz::fuzzPaths());
  (void)parseOverflowSentence(message);
  (void)parseOverflowSentence(std::string(text));
  return 0;
}

// Performance hints: report/perf_hints.log lines and the stderr summary line.
#include "compile_fuzz_support.h"
#include "compiler/compile_text.h"
#include "compiler/perf_hint_parser.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(perf_hints) {
  using namespace portcheck;
  std::vector<std::string> lines = logLines(fuzz::asText(data, size));
  (void)parsePerfHints(lines, fuzz::fuzzPaths());
  (void)parsePerfHintSummary(lines, fuzz::fuzzPaths());
  return 0;
}

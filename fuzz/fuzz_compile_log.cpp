// The whole compile analysis over a log (merged stdout+stderr) of any shape, with a non-zero exit and
// no output folder: logger lines, parser error blocks, tracebacks, failure lines, warnings, perf hints.
#include "compile_fuzz_support.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(compile_log) {
  using namespace portcheck;
  CompileRecord r = fuzz::fuzzRecord();
  r.log = std::string(fuzz::asText(data, size));
  r.exit_code = 1;
  (void)analyzeCompile(r, Platform::A2A3);
  r.exit_code = 0;
  (void)analyzeCompile(r, Platform::A5);
  return 0;
}

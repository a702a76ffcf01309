// Error blocks of a compile log: the rendered parser error (`Error:` / `-->` / `= help:`), Python
// tracebacks and the exception they end with, `Check failed:` tails and C++ tracebacks.
#include "compiler/compile_text.h"
#include "compiler/parser_error_parser.h"
#include "compiler/python_exception_parser.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(error_blocks) {
  using namespace portcheck;
  std::string_view text = fuzz::asText(data, size);
  std::vector<std::string> lines = logLines(text);
  (void)parseRenderedParserErrors(lines);
  (void)parseTracebackFrames(lines);
  if (std::optional<PythonException> e = parseLoggedException(lines)) {
    (void)reportedTypeName(e->type);
    (void)shortTypeName(e->type);
    (void)splitCppMessage(e->message);
  }
  for (const std::string& line : lines) {
    (void)parseLoggerLine(line);
    (void)parseCheckFailedLine(line);
    (void)parseRawLocation(line);
  }
  (void)dropCppTraceback(text);
  (void)splitCppMessage(text);
  std::string s(text);
  (void)takeTrailingSpan(s);
  std::string t(text);
  (void)takeTrailingAt(t);
  return 0;
}

// Codegen failures: `Failed to compile ...` log lines, the `Function | Error` table of the exception
// and report/codegen_errors.txt, their merge and classification (ptoas missing, ptoas diagnostic,
// misplaced op, other).
#include "compile_fuzz_support.h"
#include "compiler/codegen_error_parser.h"
#include "compiler/compile_text.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(codegen_tables) {
  using namespace portcheck;
  std::string text(fuzz::asText(data, size));
  std::vector<std::string> lines = logLines(text);
  std::vector<CodegenFailure> from_log = parseFailureLines(lines);
  (void)isCodegenTable(text);
  std::vector<CodegenFailure> from_table = parseCodegenTable(text);
  (void)codegenDetailsPath(text);
  std::vector<CodegenFailure> from_file = parseCodegenErrorsFile(text);
  (void)unwrapTableCell(lines);
  for (const CodegenFailure& f : mergeCodegenFailures(from_log, from_table, from_file)) {
    (void)classifyCodegenFailure(f, "PartialCodegenError", fuzz::fuzzPaths());
    (void)classifyCodegenFailure(f, "RuntimeError", fuzz::fuzzPaths());
  }
  return 0;
}

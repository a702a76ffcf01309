// clang's text diagnostics (-fno-caret-diagnostics) and their mapping onto the user's kernel.
#include "clangcheck/clang_output.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(clang_output) {
  using namespace portcheck::clangcheck;
  std::vector<ClangMessage> messages = parseClangOutput(portcheck::fuzz::asText(data, size));
  PathMapping paths{"missing_tmp.cpp", "projects/p/kernels/missing_tmp.cpp", "<pto-isa>"};
  (void)toDiagnostics(messages, paths);
  return 0;
}

// What ptoas prints (`loc("file":L:C): error: ...`, "ptoas binary not found ...") and the loc()
// annotations of generated .pto files (the index from SSA names to user lines).
#include "compiler/pto_loc_index.h"
#include "compiler/ptoas_error_parser.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(ptoas_output) {
  using namespace portcheck;
  std::string text(fuzz::asText(data, size));
  (void)parsePtoasDiagnostics(text);
  (void)parsePtoasMissing(text);
  for (int line : {0, 1, 2, 3, 5, 8, 13, 1000000}) (void)ptoUserLocation(text, line);
  PtoLocIndex index;
  index.addText(text);
  (void)index.find("k", "tx__ssa_v0");
  (void)index.find("", "");
  return 0;
}

// The import and sys.path scanner that follows a program file's imports (dsl/local_imports.h): any
// bytes give a list of import statements and folders, never a crash, in bounded time.
#include "dsl/local_imports.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(local_imports) {
  std::string_view text = portcheck::fuzz::asText(data, size);
  (void)portcheck::dsl::importStatements(text);
  (void)portcheck::dsl::sysPathAdditions(text, "/w/models/m");
  return 0;
}

// The IR verifier's report (pypto.Error / VerificationError message).
#include "compile_fuzz_support.h"
#include "compiler/verifier_report_parser.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(verifier_report) {
  using namespace portcheck;
  std::string message(fuzz::asText(data, size));
  (void)isVerifierReport(message);
  (void)parseVerifierReport("pypto.Error", message, fuzz::fuzzPaths());
  return 0;
}

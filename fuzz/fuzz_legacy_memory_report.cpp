// The retired report/memory_after_<Pass>.txt table.
#include "compiler/legacy_memory_report_parser.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(legacy_memory_report) {
  (void)portcheck::parseLegacyMemoryReport(std::string(portcheck::fuzz::asText(data, size)));
  return 0;
}

#pragma once
// The property verifier's report, raised as pypto.Error (VerificationError):
//   Verification failed after '<Pass>' for properties {...}:     (or Post-verification failed after pass '<P>':)
//   IR Verification Report
//   ======================
//   Total diagnostics: 1 (1 errors, 0 warnings)
//
//   [1] ERROR - AllocatedMemoryAddr
//     Message: Function 'f': Vec buffer usage (262144 bytes) exceeds platform limit (188416 bytes)
//     Location: <file>:11:1
//     Error Code: 1
//
//   Status: FAILED (1 error(s) found)
#include <string>
#include <vector>

#include "compiler/compile_facts.h"
#include "compiler/path_mapper.h"

namespace portcheck {

// True when `message` holds an IR Verification Report.
bool isVerifierReport(const std::string& message);

// One CompilerError per ERROR entry (COMP003); buffer overflows carry function/space/used/limit.
// Empty when `message` is not a report.
std::vector<CompilerError> parseVerifierReport(const std::string& exception_type, const std::string& message,
                                               const PathMapper& paths);

}  // namespace portcheck

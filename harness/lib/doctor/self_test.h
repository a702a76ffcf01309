#pragma once
// port-check doctor --run: small programs of each kind (vector, cube, mixed cube+vector; FP32, BF16,
// INT8) shipped with the adapter (harness/adapter/selftest/), each run on the simulator through the run
// stage and compared with its golden, so a user learns which kinds this simulator computes correctly
// before blaming a port.
#include <string>
#include <vector>

#include "compiler/compile_driver.h"
#include "core/platform.h"

namespace portcheck::doctor {

struct SelfTestProgram {
  const char* program;  // file stem under harness/adapter/selftest/ and its entry's name
  const char* kind;     // what it exercises, for people
};

// Every self-test program, in the order they run.
const std::vector<SelfTestProgram>& selfTestPrograms();

struct SelfTestCase {
  std::string program;
  std::string kind;
  std::string verdict;  // pass, wrong (an output differs from the golden), failed (no comparison)
  std::string rule;     // the GOLD rule that says why, when not pass
  std::string detail;   // figures of the wrong outputs, or the failure
  double seconds = 0;
};

// `settings.adapter_script` must be installed (installAdapter); `settings.timeout` bounds each run.
std::vector<SelfTestCase> runSelfTest(const DriverSettings& settings, Platform platform);

}  // namespace portcheck::doctor

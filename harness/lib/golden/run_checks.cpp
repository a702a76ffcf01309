// The GOLD family: every run check, in the order they are tried.
#include "golden/checks/golden_contract_check.h"
#include "golden/checks/golden_raised_check.h"
#include "golden/checks/kernel_compile_check.h"
#include "golden/checks/kernel_toolchain_check.h"
#include "golden/checks/output_copies_input_check.h"
#include "golden/checks/output_constant_check.h"
#include "golden/checks/output_ignores_inputs_check.h"
#include "golden/checks/output_mismatch_check.h"
#include "golden/checks/output_never_written_check.h"
#include "golden/checks/output_not_finite_check.h"
#include "golden/checks/output_shape_check.h"
#include "golden/checks/run_cancelled_check.h"
#include "golden/checks/run_crash_check.h"
#include "golden/checks/run_failed_check.h"
#include "golden/checks/run_timeout_check.h"
#include "golden/checks/runtime_missing_check.h"
#include "golden/checks/write_outside_region_check.h"
#include "golden/run_check.h"

namespace portcheck {

const std::vector<std::unique_ptr<RunFailureCheck>>& runFailureChecks() {
  static const std::vector<std::unique_ptr<RunFailureCheck>> checks = [] {
    std::vector<std::unique_ptr<RunFailureCheck>> v;
    // The process first (a killed run's partial result says nothing), then the environment, then
    // the port's own files, and the catch-all last.
    v.push_back(std::make_unique<RunCancelledCheck>());
    v.push_back(std::make_unique<RunTimeoutCheck>());
    v.push_back(std::make_unique<RuntimeMissingCheck>());
    v.push_back(std::make_unique<RunCrashCheck>());
    v.push_back(std::make_unique<KernelToolchainCheck>());
    v.push_back(std::make_unique<KernelCompileCheck>());
    v.push_back(std::make_unique<GoldenRaisedCheck>());
    v.push_back(std::make_unique<GoldenContractCheck>());
    v.push_back(std::make_unique<RunFailedCheck>());
    return v;
  }();
  return checks;
}

const std::vector<std::unique_ptr<OutputCheck>>& outputChecks() {
  static const std::vector<std::unique_ptr<OutputCheck>> checks = [] {
    std::vector<std::unique_ptr<OutputCheck>> v;
    v.push_back(std::make_unique<OutputNeverWrittenCheck>());
    v.push_back(std::make_unique<OutputShapeCheck>());
    v.push_back(std::make_unique<OutputMismatchCheck>());
    v.push_back(std::make_unique<OutputNotFiniteCheck>());
    return v;
  }();
  return checks;
}

const std::vector<std::unique_ptr<GamingCheck>>& gamingChecks() {
  static const std::vector<std::unique_ptr<GamingCheck>> checks = [] {
    std::vector<std::unique_ptr<GamingCheck>> v;
    v.push_back(std::make_unique<OutputIgnoresInputsCheck>());
    v.push_back(std::make_unique<OutputCopiesInputCheck>());
    v.push_back(std::make_unique<OutputConstantCheck>());
    v.push_back(std::make_unique<WriteOutsideRegionCheck>());
    return v;
  }();
  return checks;
}

}  // namespace portcheck

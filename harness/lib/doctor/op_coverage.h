#pragma once
// Which tile ops the doctor's self-test exercises, and which ports and blocks of a workspace depend on an
// op that no passing self-test exercised (docs/doctor.md "What the self-test covers"): a user learns which
// ports this toolchain can run before running them.
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "doctor/self_test.h"

namespace portcheck::doctor {

// The ops a Python source calls: `pl.X(` and `pl.tile.X(` are op X (`tile.X` where pl.X is a view or an
// orchestration op, e.g. tile.assemble), and `pl.recip(..., high_precision=True)` is
// "recip[high_precision]" (its own lowering). Structural ops (isStructuralOp) are left out.
std::set<std::string> opsCalled(std::string_view source);

// Loops, scopes, tensors and views of the orchestration (range, at, create_tensor, slice, reshape, ...):
// they never reach a kernel as an instruction of their own, so no self-test is owed for them.
bool isStructuralOp(std::string_view op);

struct PortAtRisk {
  std::string unit;                      // "projects/swiglu_mlp", "pypto-lib/layer_norm"
  std::vector<std::string> ops;          // ops it calls that no passing self-test exercised
  std::vector<std::string> self_tests;   // the failed self-tests that exercise them
};

// The ports (projects/*/pypto_src) and blocks (pypto-lib/*) under `workspace` that call an op every
// self-test of which failed, with `selftest_dir` holding the self-test programs that `cases` ran.
std::vector<PortAtRisk> portsAtRisk(const std::filesystem::path& workspace, const std::filesystem::path& selftest_dir,
                                    const std::vector<SelfTestCase>& cases);

}  // namespace portcheck::doctor

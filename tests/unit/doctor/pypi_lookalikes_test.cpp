// doctor's PyPI look-alike findings (doctor/pypi_lookalikes.h) and the nanobind 3 check
// (doctor/nanobind_check.h), judged from probe facts: CANN's pypto, the ptoas wheel that cannot start,
// the simpler placeholder, and ir.TileView() rejected by bindings built against nanobind 3.
#include <gtest/gtest.h>

#include "doctor/doctor_checks.h"
#include "doctor/doctor_test_facts.h"

namespace portcheck::doctor {
namespace {

// CANN's PyPTO as PyPI's pypto 0.2.0 installs it (its files: pypto/frontend/..., no pypto/language/).
const char* kCannDistribution = R"({"installed": true, "version": "0.2.0", "from_index": true,
  "location": "/venv/lib/python3.11/site-packages", "top_level": ["pypto"],
  "subpackages": ["frontend", "lib", "operation"]})";

TEST(PypiLookalikes, CannPyptoThatIsImportedStopsThePassesLevelAndSaysUninstallAndPyptoRoot) {
  ToolchainFacts f = healthyFacts();
  f.probe["pypto"] = json::parse(R"({"ok": false, "error": "ModuleNotFoundError: No module named 'sympy'"})");
  f.probe["pypto_layout"] = json::parse(R"({"found": true, "path": "/venv/lib/python3.11/site-packages/pypto",
                                            "language": false, "ir": false, "frontend": true})");
  f.probe["distributions"]["pypto"] = json::parse(kCannDistribution);
  f.probe.erase("tile_view");
  std::vector<Check> checks = judge(f);
  const Check& import = find(checks, "passes.import");
  EXPECT_EQ(import.state, CheckState::Missing);
  EXPECT_NE(import.found.find("CANN's PyPTO (PyPI pypto 0.2.0) at /venv/lib/python3.11/site-packages/pypto"),
            std::string::npos) << import.found;
  EXPECT_NE(import.found.find("no pypto.language, no pypto.ir"), std::string::npos);
  EXPECT_NE(import.fix.find("-m pip uninstall pypto"), std::string::npos);
  EXPECT_NE(import.fix.find("PYPTO_ROOT"), std::string::npos);
  EXPECT_FALSE(reachedLevel(checks).has_value());
}

TEST(PypiLookalikes, CannPyptoBesideTheCheckoutIsAWarningThatKeepsTheLevel) {
  ToolchainFacts f = healthyFacts();
  f.probe["distributions"]["pypto"] = json::parse(kCannDistribution);
  std::vector<Check> checks = judge(f);
  EXPECT_EQ(find(checks, "passes.import").state, CheckState::Ok);
  const Check& beside = find(checks, "passes.pypi_pypto");
  EXPECT_EQ(beside.state, CheckState::Warning);
  EXPECT_NE(beside.found.find("shadows hw-native-sys PyPTO"), std::string::npos) << beside.found;
  EXPECT_NE(beside.found.find("/venv/lib/python3.11/site-packages"), std::string::npos);
  EXPECT_NE(beside.fix.find("-m pip uninstall pypto"), std::string::npos);
  EXPECT_EQ(reachedLevel(checks), Level::Simulator);
  // hw-native-sys PyPTO installed with pip from its checkout is not a look-alike.
  f.probe["distributions"]["pypto"] =
      json::parse(R"({"installed": true, "version": "0.1.0", "from_index": false, "subpackages": ["language", "ir"]})");
  for (const Check& c : judge(f)) EXPECT_NE(c.id, "passes.pypi_pypto");
}

TEST(PypiLookalikes, PtoasWheelThatCannotStartIsNamedWithItsMissingLibraryAndTheSourceBuildFix) {
  ToolchainFacts f = healthyFacts();
  f.toolchain.ptoas = "/venv/bin/ptoas";
  f.ptoas = {false, "", "exit status 127: /venv/lib/python3.12/site-packages/ptoas/bin/ptoas: error while loading "
                        "shared libraries: libMLIRMlirOptMain.so.19.1: cannot open shared object file: No such file "
                        "or directory", "v0.57"};
  f.probe["distributions"]["ptoas"] =
      json::parse(R"({"installed": true, "version": "0.1.1", "from_index": true, "location": "/venv/lib/python3.12/site-packages"})");
  std::vector<Check> checks = judge(f);
  const Check& ptoas = find(checks, "kernels.ptoas");
  EXPECT_EQ(ptoas.state, CheckState::Missing);
  EXPECT_NE(ptoas.found.find("/venv/bin/ptoas cannot start"), std::string::npos) << ptoas.found;
  EXPECT_NE(ptoas.found.find("libMLIRMlirOptMain.so.19.1"), std::string::npos);
  EXPECT_NE(ptoas.found.find("PyPI's ptoas wheel (`ptoas` 0.1.1"), std::string::npos) << ptoas.found;
  EXPECT_NE(ptoas.fix.find("-m pip uninstall ptoas"), std::string::npos);
  EXPECT_NE(ptoas.fix.find("build hw-native-sys/PTOAS from source"), std::string::npos);
  EXPECT_NE(ptoas.fix.find("PTOAS_ROOT"), std::string::npos);
  EXPECT_EQ(reachedLevel(checks), Level::Passes);
  // The wheel installed while a working ptoas is found elsewhere: a warning of its own.
  f = healthyFacts();
  f.probe["distributions"]["ptoas"] = json::parse(R"({"installed": true, "version": "0.1.1", "from_index": true})");
  checks = judge(f);
  EXPECT_EQ(find(checks, "kernels.ptoas").state, CheckState::Ok);
  EXPECT_EQ(find(checks, "kernels.pypi_ptoas").state, CheckState::Warning);
  EXPECT_EQ(reachedLevel(checks), Level::Simulator);
}

TEST(PypiLookalikes, SimplerPlaceholderReplacesTheGenericImportError) {
  ToolchainFacts f = healthyFacts();
  f.probe["simpler_setup"] = json::parse(R"({"ok": false, "error": "ModuleNotFoundError: No module named 'simpler_setup'"})");
  f.probe["distributions"]["simpler"] =
      json::parse(R"({"installed": true, "version": "0.0.1", "from_index": true, "location": "/venv/site", "top_level": ["simpler"]})");
  std::vector<Check> checks = judge(f);
  const Check& simpler = find(checks, "simulator.simpler");
  EXPECT_EQ(simpler.state, CheckState::Missing);
  EXPECT_NE(simpler.found.find("a placeholder, not hw-native-sys/simpler: no simpler_setup, no native _task_interface"),
            std::string::npos) << simpler.found;
  EXPECT_NE(simpler.fix.find("-m pip uninstall simpler"), std::string::npos);
  EXPECT_NE(simpler.fix.find("--no-build-isolation -e /opt/pypto/runtime"), std::string::npos) << simpler.fix;
  // simpler built from its checkout (pip recorded the folder) is the real one, even when broken.
  f.probe["distributions"]["simpler"]["from_index"] = false;
  EXPECT_NE(find(judge(f), "simulator.simpler").found.find("No module named 'simpler_setup'"), std::string::npos);
}

TEST(NanobindCheck, TileViewRejectedAsNanobind3NamesTheRebuildWithNanobind2) {
  ToolchainFacts f = healthyFacts();
  f.probe["tile_view"] = json::parse(R"({"ok": false, "error": "TypeError: __init__(): incompatible function arguments. The following argument types are supported:\n    1. __init__(self, valid_shape: collections.abc.Sequence[pypto.pypto_core.ir.Expr], stride: ..., start_offset: pypto.pypto_core.ir.Expr) -> None\n\nInvoked with types: pypto.pypto_core.ir.TileView"})");
  f.probe["nanobind"]["version"] = "3.0.0";
  std::vector<Check> checks = judge(f);
  const Check& b = find(checks, "passes.bindings");
  EXPECT_EQ(b.state, CheckState::Missing);
  EXPECT_NE(b.found.find("ParserSyntaxError: Failed to parse function"), std::string::npos) << b.found;
  EXPECT_NE(b.found.find("nanobind 3.0.0 installed"), std::string::npos) << b.found;
  EXPECT_NE(b.fix.find("'nanobind>=2,<3'"), std::string::npos) << b.fix;
  EXPECT_NE(b.fix.find("--no-build-isolation"), std::string::npos);
  EXPECT_FALSE(reachedLevel(checks).has_value());
  // Another failure of the bindings is reported as it is, with the generic rebuild.
  f.probe["tile_view"] = json::parse(R"({"ok": false, "error": "ImportError: cannot import name 'ir'"})");
  checks = judge(f);
  const Check& other = find(checks, "passes.bindings");
  EXPECT_EQ(other.found, "ir.TileView() fails: ImportError: cannot import name 'ir'");
  EXPECT_EQ(other.fix.find("nanobind>=2"), std::string::npos);
  // Built right: ok, with the nanobind seen.
  EXPECT_EQ(find(judge(healthyFacts()), "passes.bindings").found, "ir.TileView() builds (nanobind 2.9.2 installed)");
}

}  // namespace
}  // namespace portcheck::doctor

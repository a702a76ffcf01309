// End to end on the real simulator: projects/row_softmax passes, and a copy with a wrong
// reduction is reported with the output named and its error figures. Runs only where the whole
// simulator toolchain is present (PyPTO, simpler with its native module, cloudpickle, torch >= 2.3,
// ptoas, g++-15); otherwise it is skipped with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "golden/run_driver.h"
#include "process/subprocess.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

// What the probe needs, printed as one line of reasons when something is missing.
constexpr const char* kProbe = R"PY(
import shutil, sys
problems = []
try:
    import pypto.language  # noqa: F401
except Exception as e:
    problems.append(f"PyPTO does not import ({type(e).__name__}: {e})")
try:
    import torch
    if not hasattr(torch, "uint16"):
        problems.append(f"torch {torch.__version__} is older than 2.3 (no torch.uint16; the runtime needs it)")
except Exception as e:
    problems.append(f"no torch ({e})")
for name in ("simpler_setup", "simpler.task_interface", "cloudpickle"):
    try:
        __import__(name)
    except Exception as e:
        problems.append(f"{name} does not import ({type(e).__name__}: {e})")
try:
    from pypto.backend._ptoas_locate import find_ptoas_binary
    ptoas = find_ptoas_binary()
except Exception:
    ptoas = shutil.which("ptoas")
if not ptoas:
    problems.append("ptoas not found (PTOAS_ROOT, PATH): no kernel C++ for the simulator")
if not shutil.which("g++-15"):
    problems.append("no g++-15 on PATH (the simulator's C++23 kernel compiler)")
print("; ".join(problems))
sys.exit(1 if problems else 0)
)PY";

struct Simulator {
  fs::path pypto;
  std::string python;
  std::string why_not;
};

Simulator findSimulator() {
  Simulator s;
  const char* root = std::getenv("PYPTO_ROOT");
  s.pypto = root && *root ? fs::path(root) : fs::path(test::sourceDir()).parent_path() / "pypto";
  const char* py = std::getenv("PYPTO_PYTHON");
  s.python = py && *py ? py : "python3";
  std::error_code ec;
  if (!fs::is_regular_file(s.pypto / "python/pypto/__init__.py", ec)) {
    s.why_not = "no PyPTO checkout at " + s.pypto.string() + " (set PYPTO_ROOT)";
    return s;
  }
  Toolchain tc;
  tc.found = true;
  tc.pypto_root = s.pypto;
  ProcessSpec probe;
  probe.argv = {s.python, "-c", kProbe};
  probe.env = runEnvironment(currentEnvironment(), tc);  // what a run sees
  probe.timeout = std::chrono::seconds(120);
  ProcessResult r = runProcess(probe);
  if (!r.started) s.why_not = "cannot start " + s.python + ": " + r.spawn_error;
  else if (r.exit_code != 0) s.why_not = r.output.empty() ? "the probe failed" : r.output;
  while (!s.why_not.empty() && (s.why_not.back() == '\n' || s.why_not.back() == '\r')) s.why_not.pop_back();
  return s;
}

void replaceInFile(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = test::readFile(file);
  auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not in " << file;
  text.replace(at, from.size(), to);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

TEST(RunEndToEnd, RowSoftmaxPassesAndAWrongReductionIsReportedOnTheSimulator) {
  Simulator sim = findSimulator();
  if (!sim.why_not.empty()) GTEST_SKIP() << "simulator not available: " << sim.why_not;
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  fs::path port = fs::path(test::sourceDir()) / "projects" / "row_softmax";
  fs::create_directories(ws / "projects");  // fs::copy makes the folder it copies to, not its parents
  fs::copy(port, ws / "projects/row_softmax", fs::copy_options::recursive);
  fs::copy(port, ws / "projects/row_softmax_wrong", fs::copy_options::recursive);
  // The wrong port multiplies by the row sum instead of dividing (same tiles, same liveness: it still
  // fits Vec at the port's ROW_TILE, so the compile passes and the simulator shows the mistake).
  replaceInFile(ws / "projects/row_softmax_wrong/pypto_src/incore.py", "pl.row_expand_div(exps, row_sum)",
                "pl.row_expand_mul(exps, row_sum)");
  std::string args = "run --format json --timeout 1800 --pypto '" + sim.pypto.string() + "' --python '" +
                     sim.python + "' ";

  auto good = test::runBinary(args + "projects/row_softmax", ws.path());
  ASSERT_EQ(good.exit_code, 0) << good.out;
  nlohmann::json g = nlohmann::json::parse(good.out);
  ASSERT_EQ(g["golden"].size(), 1u) << good.out;
  EXPECT_EQ(g["golden"][0]["status"], "passed") << good.out;
  ASSERT_FALSE(g["golden"][0]["outputs"].empty()) << good.out;
  EXPECT_EQ(g["golden"][0]["outputs"][0]["name"], "out");
  EXPECT_EQ(g["golden"][0]["outputs"][0]["mismatches"], 0);
  // The run executed the compile stage's program instead of compiling it again.
  bool reused = false;
  for (const auto& e : fs::recursive_directory_iterator(ws / ".port-check-cache/run"))
    if (e.path().filename() == "result.json")
      reused |= nlohmann::json::parse(test::readFile(e.path())).contains("reused_compile");
  EXPECT_TRUE(reused);

  auto bad = test::runBinary(args + "projects/row_softmax_wrong", ws.path());
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  nlohmann::json b = nlohmann::json::parse(bad.out);
  ASSERT_EQ(b["golden"].size(), 1u) << bad.out;
  ASSERT_FALSE(b["golden"][0]["outputs"].empty()) << bad.out;  // a compile failure would leave none
  const auto& out = b["golden"][0]["outputs"][0];
  EXPECT_EQ(out["name"], "out");
  EXPECT_EQ(out["verdict"], "mismatch") << bad.out;
  // Logits are scaled by 8, so most probabilities are ~0 either way and within ATOL: only every row's
  // large entries differ, not most of the elements.
  EXPECT_GT(out["mismatch_share"].get<double>(), 0.05) << bad.out;
  EXPECT_GT(out["max_abs_err"].get<double>(), 1e-3) << bad.out;
  bool named = false;
  for (const auto& d : b["diagnostics"])
    named |= d["rule"] == "GOLD001" && d["message"].get<std::string>().find("output 'out'") != std::string::npos &&
             d["file"] == "projects/row_softmax_wrong/pypto_src/orchestration.py";
  EXPECT_TRUE(named) << bad.out;
}

}  // namespace
}  // namespace portcheck

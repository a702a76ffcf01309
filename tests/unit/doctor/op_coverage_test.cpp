// What the doctor's self-test covers (doctor/op_coverage.h, docs/doctor.md): the ops a source calls, the
// promise that every op the bundled ports and pypto-lib blocks call is exercised by a shipped self-test
// program, and the ports a failed self-test puts at risk.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "doctor/op_coverage.h"
#include "test_support.h"

namespace portcheck::doctor {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(OpCoverage, OpsAreReadFromCallsWithTheirLoweringVariants) {
  std::set<std::string> ops = opsCalled(
      "for i in pl.range(4):\n"
      "    t = pl.tile.full([8, 8], dtype=pl.FP32, value=0.0)\n"
      "    s = pl.recip(pl.add(pl.exp(pl.neg(g)), 1.0), high_precision=True)\n"
      "    r = pl.recip(t)\n"
      "    m = pl.tile.assemble(m, acc, [0, 0])\n"
      "    v = pl.assemble(out, t, [0, 0])   # a tensor view in the orchestration\n"
      "    x = pl.load(a, [0, 0], [8, 8], target_memory=pl.MemorySpace.Vec)\n");
  EXPECT_EQ(ops, (std::set<std::string>{"full", "recip[high_precision]", "add", "exp", "neg", "recip", "tile.assemble",
                                        "load"}));
}

TEST(OpCoverage, EveryOpTheBundledPortsAndBlocksCallHasASelfTest) {
  const fs::path root = test::sourceDir();
  std::set<std::string> tested;
  for (const SelfTestProgram& p : selfTestPrograms()) {
    fs::path file = root / "harness/adapter/selftest" / (std::string(p.program) + ".py");
    ASSERT_TRUE(fs::exists(file)) << file;
    std::set<std::string> ops = opsCalled(slurp(file));
    tested.insert(ops.begin(), ops.end());
  }
  std::size_t files = 0;
  for (const char* folder : {"projects", "pypto-lib"})
    for (const auto& e : fs::recursive_directory_iterator(root / folder)) {
      if (!e.is_regular_file() || e.path().extension() != ".py") continue;
      if (e.path().string().find("/original/") != std::string::npos) continue;  // the PyTorch originals
      ++files;
      for (const std::string& op : opsCalled(slurp(e.path())))
        EXPECT_TRUE(tested.count(op)) << e.path().lexically_relative(root).string() << " calls pl." << op
                                      << ", which no doctor self-test program exercises (harness/adapter/selftest/)";
    }
  EXPECT_GT(files, 20u) << "the ports and blocks were found";
}

TEST(OpCoverage, APortCallingAnOpOnlyAFailedSelfTestExercisesIsAtRisk) {
  test::TempDir ws;
  ws.write("projects/sigmoid_gate/pypto_src/incore.py", "y = pl.recip(pl.exp(x), high_precision=True)\n");
  ws.write("projects/plain/pypto_src/incore.py", "y = pl.recip(pl.exp(x))\n");
  ws.write("projects/uses_block/pypto_src/incore.py", "sys.path.insert(0, LIB)\nfrom gate import gate_k  # noqa\n");
  ws.write("pypto-lib/gate/gate.py", "y = pl.recip(x, high_precision=True)\n");
  ws.write("pypto-lib/gate/test_gate.py", "y = pl.recip(x, high_precision=True)  # the block's test: not counted\n");
  ws.write("selftest/vector_math_fp32.py", "y = pl.recip(pl.exp(x))\n");
  ws.write("selftest/vector_recip_precise.py", "y = pl.recip(pl.exp(x), high_precision=True)\n");
  std::vector<SelfTestCase> cases = {{"vector_math_fp32", "math", "pass", "", "", 0},
                                     {"vector_recip_precise", "recip", "failed", "GOLD011", "unknown attribute", 0}};
  std::vector<PortAtRisk> risky = portsAtRisk(ws.path(), ws.path() / "selftest", cases);
  ASSERT_EQ(risky.size(), 3u);
  EXPECT_EQ(risky[0].unit, "projects/sigmoid_gate");
  EXPECT_EQ(risky[0].ops, (std::vector<std::string>{"recip[high_precision]"}));
  EXPECT_EQ(risky[0].self_tests, (std::vector<std::string>{"vector_recip_precise"}));
  EXPECT_EQ(risky[1].unit, "projects/uses_block") << "a port calling a pypto-lib block's kernel inherits its ops";
  EXPECT_EQ(risky[2].unit, "pypto-lib/gate");
  cases[1].verdict = "pass";
  EXPECT_TRUE(portsAtRisk(ws.path(), ws.path() / "selftest", cases).empty());
}

}  // namespace
}  // namespace portcheck::doctor

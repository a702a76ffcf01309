// Two port-check processes on the same project, the same compile cache and the same output file both
// finish correctly: the program compiles once (the second run waits for the first, then replays its
// cached result), the cache holds one whole entry and no temporary file, the shared report is whole.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "robustness_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

TEST(Concurrency, TwoChecksOnOneProjectShareTheCacheAndOutput) {
  test::TempDir dir;
  fs::path ws = dir / "ws";
  dir.write("ws/.git/HEAD", "ref: refs/heads/main\n");
  dir.write("ws/projects/p/pypto_src/FAKE_MODE", "slow\n");
  dir.write("ws/projects/p/pypto_src/golden.py", "x = 1\n");
  dir.write("pypto/python/pypto/__init__.py", "");
  std::string one = "env -u PYPTO_ROOT " + test::quoted(PORTCHECK_BINARY) + " check --format json --output report.json" +
                    " --pypto " + test::quoted((dir / "pypto").string()) + " --python " + test::quoted(test::fakeCompilePython()) +
                    " projects/p";
  std::string both = "cd " + test::quoted(ws.string()) + " && { (" + one + " > a.log 2>&1; echo $? > a.rc) & (" + one +
                     " > b.log 2>&1; echo $? > b.rc) & wait; }";
  ASSERT_EQ(std::system(("sh -c " + test::quoted(both)).c_str()), 0);
  EXPECT_EQ(test::readFile(ws / "a.rc"), "0\n") << test::readFile(ws / "a.log");
  EXPECT_EQ(test::readFile(ws / "b.rc"), "0\n") << test::readFile(ws / "b.log");

  // One compile ran; the other run replayed it.
  EXPECT_EQ(test::readFile(ws / "projects/p/runs.log"), "run\n");

  // The shared output file is one whole report.
  nlohmann::json report = nlohmann::json::parse(test::readFile(ws / "report.json"), nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << test::readFile(ws / "report.json");
  EXPECT_TRUE(report.contains("diagnostics"));

  // The cache: one parseable result entry, no temporary left behind.
  int entries = 0;
  for (const auto& e : fs::recursive_directory_iterator(ws / ".port-check-cache")) {
    std::string name = e.path().filename().string();
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << e.path();
    if (e.is_regular_file() && e.path().extension() == ".json" &&
        e.path().parent_path().parent_path().filename() == "results") {
      ++entries;
      EXPECT_FALSE(nlohmann::json::parse(test::readFile(e.path()), nullptr, false).is_discarded()) << e.path();
    }
  }
  EXPECT_EQ(entries, 1);
}

TEST(Concurrency, ParallelLintsWriteOneWholeOutputFile) {
  test::TempDir dir;
  dir.write(".git/HEAD", "ref: refs/heads/main\n");
  for (int i = 0; i < 20; ++i)
    dir.write("projects/p/pypto_src/m" + std::to_string(i) + ".py", "import pypto.language as pl\ndef f(:\n");
  dir.write("projects/p/pypto_src/golden.py", "x = 1\n");
  std::string one = test::quoted(PORTCHECK_BINARY) + " lint --format sarif --output out.sarif projects/p";
  std::string cmd = "cd " + test::quoted(dir.path().string()) + " && { for i in 1 2 3 4; do (" + one +
                    " >/dev/null 2>&1) & done; wait; }";
  ASSERT_EQ(std::system(("sh -c " + test::quoted(cmd)).c_str()), 0);
  nlohmann::json sarif = nlohmann::json::parse(test::readFile(dir / "out.sarif"), nullptr, false);
  ASSERT_FALSE(sarif.is_discarded());
  EXPECT_EQ(sarif["runs"][0]["results"].size(), 21u);  // 20 DSL001 and golden.py's PROJ002 (no CONTRACT)
  for (const auto& e : fs::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

}  // namespace
}  // namespace portcheck

// A run that checked nothing says so (TOOL008) and exits 2: an empty folder, a folder without sources,
// a named file port-check does not read. `0 errors` would claim a check that never happened.
#include <gtest/gtest.h>

#include "test_support.h"

namespace portcheck {
namespace {

test::CommandResult lint(const test::TempDir& ws, const std::vector<std::string>& paths) {
  CommonOptions o = test::optionsIn(ws.path());
  o.kernel_compile.enabled = false;
  return test::runInProcess([&](const Io& io) { return runLint(o, paths, io, {}); });
}

TEST(NothingToCheck, AnEmptyFolderIsSaidAndExitsTwo) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  std::filesystem::create_directories(ws / "empty");
  auto r = lint(ws, {"empty"});
  EXPECT_EQ(r.exit_code, kExitToolError) << r.out;
  EXPECT_NE(r.out.find("'empty' holds no project and no file port-check checks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[TOOL008]"), std::string::npos) << r.out;
}

TEST(NothingToCheck, ANamedTextFileIsSaidAndExitsTwo) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("notes/plan.txt", "not a program\n");
  ws.write("notes/readme.md", "# notes\n");
  auto r = lint(ws, {"notes/plan.txt"});
  EXPECT_EQ(r.exit_code, kExitToolError) << r.out;
  EXPECT_NE(r.out.find("'notes/plan.txt' is not a file port-check checks"), std::string::npos) << r.out;
  auto folder = lint(ws, {"notes"});  // a folder of notes: nothing either
  EXPECT_EQ(folder.exit_code, kExitToolError) << folder.out;
  EXPECT_NE(folder.out.find("[TOOL008]"), std::string::npos) << folder.out;
}

TEST(NothingToCheck, AFolderWithASourceIsChecked) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("lib/helper.py", "X = 1\n");
  auto r = lint(ws, {"lib"});
  EXPECT_EQ(r.exit_code, kExitClean) << r.out;
  EXPECT_EQ(r.out.find("TOOL008"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace portcheck

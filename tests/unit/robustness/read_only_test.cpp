// Nothing port-check does changes a user's sources, git index or working tree: the tree (every file's
// bytes and mode, .git included) and `git status` are the same before and after lint, lint --staged,
// check, compile (stand-in compiler), report, hook run, rules and --version. Besides its cache, check
// and compile write only each project's attempt ledger, projects/<name>/.port-check/, which hides
// itself from git. The writing commands
// (new, hook install, skills install) refuse to overwrite without --force: tested in
// skills/scaffold_test.cpp, git/hook_install_test.cpp and skills/skill_install_test.cpp.
#include <gtest/gtest.h>

#include "git/git_repo.h"
#include "robustness_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

TEST(ReadOnly, NoCommandButTheWritingOnesTouchesTheWorkingTreeOrIndex) {
  test::GitRepo repo;
  repo.write("port-check.json", R"({"hook": {"paths": ["projects/*/pypto_src/**"]}})");
  repo.write("projects/p/pypto_src/golden.py", "RTOL = 1e-5\n");
  repo.write("projects/p/pypto_src/FAKE_MODE", "load_error\n");
  repo.write("projects/p/pypto_src/program.py",
             "import pypto.language as pl\n\n@pl.jit\ndef f(x: pl.Tensor[[64], pl.FP32]):\n    return x\n");
  repo.write("projects/p/kernels/k.cpp", "#include <pto/pto-inst.hpp>\nvoid k() {}\n");
  repo.git("add -A");
  repo.git("commit -q -m init");
  // Staged, unstaged and untracked changes, a CRLF file and a broken file.
  repo.write("projects/p/pypto_src/program.py", "import pypto.language as pl\ndef f(:\n");
  repo.git("add projects/p/pypto_src/program.py");
  repo.write("projects/p/pypto_src/golden.py", "RTOL = 1e-4\r\nATOL = 1e-4\r\n");
  repo.write("projects/p/pypto_src/notes.py", "x = (\n");
  repo.write("projects/q/pypto_src/golden.py", "x = 1\n");
  fs::path pypto = repo.temp() / "pypto";
  fs::create_directories(pypto / "python" / "pypto");
  std::ofstream(pypto / "python" / "pypto" / "__init__.py").flush();
  const std::string toolchain = "--pypto " + test::quoted(pypto.string()) + " --python " +
                                test::quoted(test::fakeCompilePython()) + " ";

  const std::string status = repo.run("git status --porcelain=v1 --untracked-files=all").out;  // refreshes the index
  const std::vector<std::string> own = {".port-check-cache", "projects/p/.port-check", "projects/q/.port-check"};
  const auto before = test::treeSnapshot(repo.root(), own);

  for (const std::string& args :
       {std::string("lint projects"), std::string("lint --staged"), std::string("lint --format sarif projects/p"),
        "check " + toolchain + "projects", "compile " + toolchain + "projects/p", std::string("report projects/p"),
        std::string("hook run"), std::string("rules"), std::string("--version")}) {
    test::Shell r = repo.portCheck(args);
    EXPECT_NE(r.exit_code, -1) << args;
    EXPECT_LE(r.exit_code, 2) << args << "\n" << r.out;
    auto after = test::treeSnapshot(repo.root(), own);
    for (const auto& [path, hash] : before) {
      auto it = after.find(path);
      if (it == after.end()) ADD_FAILURE() << "`port-check " << args << "` removed " << path;
      else EXPECT_EQ(it->second, hash) << "`port-check " << args << "` changed " << path;
    }
    for (const auto& [path, hash] : after)
      if (!before.count(path)) ADD_FAILURE() << "`port-check " << args << "` created " << path;
  }
  // The cache and ledger folders port-check did create hide themselves from git.
  EXPECT_TRUE(fs::exists(repo.root() / ".port-check-cache"));
  EXPECT_TRUE(fs::exists(repo.root() / "projects/p/.port-check/ledger.jsonl"));
  EXPECT_EQ(repo.run("git status --porcelain=v1 --untracked-files=all").out, status);
}

}  // namespace
}  // namespace portcheck

// The staged copies the pre-commit hook compiles: exactly the staged blobs (not the working files),
// at their repository paths with the staged pypto-lib/ beside them, content-addressed and reused.
#include <gtest/gtest.h>

#include <cstdlib>

#include "git/lint_plan.h"
#include "git/staged_tree.h"
#include "git_repo.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using test::GitRepo;

const char* noEnv(const char*) { return nullptr; }

struct Staged {
  git::StagedTargets targets;
  fs::path cache;
};

Staged materialize(const GitRepo& repo, const fs::path& cache) {
  git::Repository r = git::Repository::open(repo.root(), noEnv);
  git::IndexPtr index = r.stagedIndex(repo.root(), noEnv);
  git::ChangeSet changes = git::stagedChanges(r, index.get());
  git::LintPlan plan = git::planLint(r, Workspace{repo.root()}, changes,
                                     {{"projects/*/pypto_src/**", "pypto-lib/**"}, {}});
  return {git::materializeStagedTargets(r, changes, plan, cache), cache};
}

TEST(StagedTree, AProjectIsCopiedAsStagedWithPyptoLibAndMapsBackToItsRepositoryPath) {
  GitRepo repo;
  repo.write("projects/p/pypto_src/golden.py", "staged = True\n");
  repo.write("projects/p/pypto_src/data/table.bin", std::string("\0\1\2", 3));
  repo.write("pypto-lib/block/block.py", "def block(): pass\n");
  repo.git("add -A");
  repo.write("projects/p/pypto_src/golden.py", "staged = False  # working file, not staged\n");
  repo.write("projects/p/pypto_src/untracked.py", "x = 1\n");

  Staged s = materialize(repo, repo.temp() / "cache");
  ASSERT_TRUE(s.targets.problems.empty());
  ASSERT_EQ(s.targets.targets.size(), 1u);
  const CompileTarget& t = s.targets.targets[0];
  EXPECT_EQ(t.name, "p");
  EXPECT_EQ(t.source_root_display, "projects/p/pypto_src");
  EXPECT_EQ(t.display_file, "projects/p/pypto_src/golden.py");
  EXPECT_EQ(t.source_root, t.tree_root / "projects/p/pypto_src");
  EXPECT_EQ(t.tree_root.parent_path(), s.cache / "staged");
  EXPECT_EQ(test::readFile(t.source_root / "golden.py"), "staged = True\n");
  EXPECT_EQ(test::readFile(t.source_root / "data/table.bin"), std::string("\0\1\2", 3));
  EXPECT_EQ(test::readFile(t.tree_root / "pypto-lib/block/block.py"), "def block(): pass\n");
  EXPECT_FALSE(fs::exists(t.source_root / "untracked.py"));
  EXPECT_EQ(test::readFile(s.cache / ".gitignore").find('*') != std::string::npos, true);

  // The same staged content is the same copy; a new staged blob is a new one.
  EXPECT_EQ(materialize(repo, s.cache).targets.targets[0].tree_root, t.tree_root);
  repo.git("add projects/p/pypto_src/golden.py");
  fs::path changed = materialize(repo, s.cache).targets.targets[0].tree_root;
  EXPECT_NE(changed, t.tree_root);
  EXPECT_EQ(test::readFile(changed / "projects/p/pypto_src/golden.py"), "staged = False  # working file, not staged\n");
}

TEST(StagedTree, AChangedPyptoLibProgramFileIsCopiedWithItsSiblings) {
  GitRepo repo;
  repo.write("pypto-lib/softmax/softmax.py", "import pypto.language as pl\n\n@pl.jit\ndef softmax(x):\n    pass\n");
  repo.write("pypto-lib/softmax/helper.py", "H = 1\n");
  repo.write("pypto-lib/softmax/test_softmax.py", "def test(): pass\n");
  repo.git("add -A");
  Staged s = materialize(repo, repo.temp() / "cache");
  ASSERT_EQ(s.targets.targets.size(), 1u) << "only the file that defines a program is a compile target";
  const CompileTarget& t = s.targets.targets[0];
  EXPECT_EQ(t.name, "softmax");
  EXPECT_EQ(t.display_file, "pypto-lib/softmax/softmax.py");
  EXPECT_EQ(t.source_root_display, "pypto-lib/softmax");
  ASSERT_TRUE(t.program_file.has_value());
  EXPECT_EQ(*t.program_file, t.tree_root / "pypto-lib/softmax/softmax.py");
  EXPECT_TRUE(fs::is_regular_file(t.source_root / "helper.py"));
}

TEST(StagedTree, OldCopiesArePrunedToTheMostRecentlyUsed) {
  test::TempDir cache;
  for (int i = 0; i < 5; ++i) {
    cache.write("staged/p-" + std::to_string(i) + "/x", "x");
    fs::last_write_time(cache / ("staged/p-" + std::to_string(i)),
                        fs::file_time_type::clock::now() - std::chrono::hours(10 - i));
  }
  cache.write("staged/.tmp-1-2/x", "being written by another hook");
  git::pruneStagedTrees(cache.path(), 2);
  EXPECT_TRUE(fs::exists(cache / "staged/p-4"));
  EXPECT_TRUE(fs::exists(cache / "staged/p-3"));
  EXPECT_FALSE(fs::exists(cache / "staged/p-2"));
  EXPECT_FALSE(fs::exists(cache / "staged/p-0"));
  EXPECT_TRUE(fs::exists(cache / "staged/.tmp-1-2"));
}

}  // namespace
}  // namespace portcheck

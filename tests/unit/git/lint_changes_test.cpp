// port-check lint --staged / --changed-since REV: the hook's check outside the hook, for CI; and the
// guarantee that reading staged content never writes the index or the work tree.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "git_repo.h"

namespace portcheck {
namespace {

using test::GitRepo;

class LintChanges : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.write("projects/p/pypto_src/golden.py", test::kGolden);
    repo.write("projects/p/pypto_src/kernel.py", test::kGood);
    repo.write("projects/q/pypto_src/golden.py", test::kGolden);
    repo.git("add -A");
    repo.git("commit -q -m base");
  }
  GitRepo repo;
};

TEST_F(LintChanges, StagedReportsOnlyStagedContent) {
  repo.write("projects/p/pypto_src/kernel.py", test::kBad);
  test::Shell clean = repo.portCheck("lint --staged");
  EXPECT_EQ(clean.exit_code, 0) << clean.out;  // not staged yet
  repo.git("add projects/p/pypto_src/kernel.py");
  test::Shell bad = repo.portCheck("lint --staged --format json");
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  EXPECT_NE(bad.out.find("\"rule\": \"DSL001\""), std::string::npos) << bad.out;
  // No bypass advice outside the hook.
  EXPECT_EQ(bad.out.find("--no-verify"), std::string::npos) << bad.out;
}

TEST_F(LintChanges, StagedPathsNarrowTheCheck) {
  repo.write("projects/p/pypto_src/kernel.py", test::kBad);
  repo.write("projects/q/pypto_src/kernel.py", test::kGood);
  repo.git("add -A");
  EXPECT_EQ(repo.portCheck("lint --staged projects/q").exit_code, 0);
  EXPECT_EQ(repo.portCheck("lint --staged projects/p").exit_code, 1);
  // From a subfolder, paths are relative to it.
  EXPECT_EQ(repo.portCheck("lint --staged pypto_src", repo.root() / "projects/p").exit_code, 1);
  EXPECT_EQ(repo.portCheck("lint --staged /").exit_code, 2);  // outside the work tree
}

TEST_F(LintChanges, UnchangedSiblingFindingsDoNotCountButProjectFindingsDo) {
  repo.write("projects/p/pypto_src/old.py", test::kBad);
  repo.git("add -A");
  repo.git("commit -q --no-verify -m legacy");
  repo.write("projects/p/pypto_src/kernel.py", std::string(test::kGood) + "# edit\n");
  repo.git("add -A");
  test::Shell r = repo.portCheck("lint --staged");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.find("old.py"), std::string::npos) << r.out;
}

TEST_F(LintChanges, ChangedSinceLintsWhatTheBranchChanged) {
  repo.git("checkout -q -b feature");
  repo.write("projects/q/pypto_src/kernel.py", test::kBad);
  repo.git("add -A");
  repo.git("commit -q -m feature");
  test::Shell r = repo.portCheck("lint --changed-since main");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("projects/q/pypto_src/kernel.py:1:"), std::string::npos) << r.out;
  // The committed content is checked, not the working file.
  repo.write("projects/q/pypto_src/kernel.py", test::kGood);
  EXPECT_EQ(repo.portCheck("lint --changed-since main").exit_code, 1);
  // Nothing changed since HEAD itself.
  EXPECT_EQ(repo.portCheck("lint --changed-since HEAD").exit_code, 0);
}

TEST_F(LintChanges, UnknownRevisionAndNoRepositoryAreToolErrors) {
  test::Shell r = repo.portCheck("lint --changed-since no-such-branch");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("cannot resolve revision 'no-such-branch'"), std::string::npos) << r.out;
  test::TempDir dir;
  test::Shell n = test::shell(test::singleQuoted(PORTCHECK_BINARY) + " lint --staged", dir.path(), dir.path());
  EXPECT_EQ(n.exit_code, 2) << n.out;
  EXPECT_NE(n.out.find("not inside a git repository"), std::string::npos) << n.out;
  EXPECT_EQ(repo.portCheck("lint --staged --changed-since main").exit_code, 2);
}

TEST_F(LintChanges, HookRunOutsideARepositoryFollowsTheToolErrorPolicy) {
  test::TempDir dir;
  std::string cmd = test::singleQuoted(PORTCHECK_BINARY) + " hook run";
  test::Shell allow = test::shell(cmd, dir.path(), dir.path());
  EXPECT_EQ(allow.exit_code, 0) << allow.out;
  EXPECT_NE(allow.out.find("port-check: error: cannot read the staged files"), std::string::npos) << allow.out;
  EXPECT_NE(allow.out.find("NOT blocked"), std::string::npos) << allow.out;
  std::ofstream(dir.path() / "port-check.json") << R"({"hook": {"on_tool_error": "block"}})";
  test::Shell block = test::shell(cmd, dir.path(), dir.path());
  EXPECT_EQ(block.exit_code, 2) << block.out;
}

TEST_F(LintChanges, GitIndexFileIsHonoured) {
  // A second index, as git commit -a builds one: bad content there, the real index is clean.
  repo.run("cp .git/index ../alt-index");
  repo.write("projects/p/pypto_src/kernel.py", test::kBad);
  repo.run("GIT_INDEX_FILE=../alt-index git add projects/p/pypto_src/kernel.py");
  EXPECT_EQ(repo.portCheck("lint --staged").exit_code, 0);
  EXPECT_EQ(repo.run("GIT_INDEX_FILE=../alt-index " + test::singleQuoted(PORTCHECK_BINARY) + " lint --staged").exit_code, 1);
  test::Shell missing = repo.run("GIT_INDEX_FILE=../nope " + test::singleQuoted(PORTCHECK_BINARY) + " lint --staged");
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_NE(missing.out.find("GIT_INDEX_FILE"), std::string::npos) << missing.out;
}

TEST_F(LintChanges, StagedProjectsSeeTheStagedPyptoLibBlocksTheyImport) {
  // The bundled layernorm port: its kernel is pypto-lib/layer_norm's, imported through sys.path.
  namespace fs = std::filesystem;
  const fs::path source = PORTCHECK_SOURCE_DIR;
  fs::create_directories(repo.root() / "projects/layernorm");
  fs::create_directories(repo.root() / "pypto-lib");
  fs::copy(source / "projects/layernorm/pypto_src", repo.root() / "projects/layernorm/pypto_src", fs::copy_options::recursive);
  fs::copy(source / "pypto-lib/layer_norm", repo.root() / "pypto-lib/layer_norm", fs::copy_options::recursive);
  repo.git("add -A");
  // The working copy of the block is gone; the index still has it, and that is what a commit holds.
  fs::remove_all(repo.root() / "pypto-lib");
  test::Shell r = repo.portCheck("lint --staged --no-cache --format json projects/layernorm");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  nlohmann::json report = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << r.out;
  ASSERT_EQ(report["sram"].size(), 1u) << r.out;
  EXPECT_EQ(report["sram"][0]["project"], "layernorm");
  EXPECT_EQ(report["sram"][0]["function"], "layer_norm_rows");
  EXPECT_EQ(report["sram"][0]["largest"][0]["file"], "pypto-lib/layer_norm/layer_norm.py");
  // The block's own files are not among the change's files.
  for (const auto& f : report["run"]["files"]) EXPECT_EQ(f.get<std::string>().rfind("pypto-lib/", 0), std::string::npos);
}

TEST_F(LintChanges, ReadingStagedContentNeverWritesTheIndexOrTheWorkTree) {
  repo.write("projects/p/pypto_src/kernel.py", test::kBad);
  repo.git("add -A");
  repo.write("projects/p/pypto_src/kernel.py", test::kGood);
  // Make the index stat data stale, the situation in which a careless status call rewrites it.
  repo.run("touch projects/p/pypto_src/golden.py projects/q/pypto_src/golden.py");
  std::string index_before = test::readFile(repo.root() / ".git/index");
  auto mtime_before = std::filesystem::last_write_time(repo.root() / ".git/index");
  EXPECT_EQ(repo.portCheck("lint --staged").exit_code, 1);
  EXPECT_EQ(repo.portCheck("hook run").exit_code, 1);
  EXPECT_EQ(test::readFile(repo.root() / ".git/index"), index_before);
  EXPECT_EQ(std::filesystem::last_write_time(repo.root() / ".git/index"), mtime_before);
  EXPECT_EQ(repo.read("projects/p/pypto_src/kernel.py"), test::kGood);
  EXPECT_FALSE(std::filesystem::exists(repo.root() / ".git/index.lock"));
}

// A loose model file is checked with the modules it imports, as staged: the kernel it calls from a
// sibling module is estimated from the staged text, not the working file.
TEST_F(LintChanges, AStagedModelFileIsModelledWithItsImportsAsStaged) {
  auto layer = [](int rows) {
    return "import pypto.language as pl\n\n\n@pl.jit.incore\n"
           "def layer(x: pl.Tensor[[256, 128], pl.FP32], y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):\n"
           "    t = pl.load(x, [0, 0], [" + std::to_string(rows) + ", 128])\n"
           "    pl.store(pl.add(t, t), [0, 0], y)\n"
           "    return y\n";
  };
  repo.write("pypto-lib/models/m/layers.py", layer(64));
  repo.write("pypto-lib/models/m/decode.py",
             "import pypto.language as pl\nfrom layers import layer\n\n\n@pl.jit\n"
             "def decode(x: pl.Tensor[[256, 128], pl.FP32], y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):\n"
             "    y = layer(x, y)\n"
             "    return y\n");
  repo.git("add -A");
  repo.git("commit -q --no-verify -m model");
  repo.write("pypto-lib/models/m/decode.py", repo.read("pypto-lib/models/m/decode.py") + "# edit\n");
  repo.git("add -A");
  repo.write("pypto-lib/models/m/layers.py", layer(128));  // not staged
  auto estimateOfLayer = [](const std::string& out) -> std::int64_t {
    nlohmann::json j = nlohmann::json::parse(out);
    for (const auto& row : j["sram"])
      if (row["function"] == "layer" && row["space"] == "Vec" && row["estimate"].is_number())
        return row["estimate"].get<std::int64_t>();
    return -1;
  };
  test::Shell staged = repo.portCheck("lint --staged --format json");
  test::Shell disk = repo.portCheck("lint --format json pypto-lib/models/m/decode.py");
  EXPECT_EQ(estimateOfLayer(staged.out), 32768) << staged.out;  // [64, 128] FP32, t + t in place
  EXPECT_EQ(estimateOfLayer(disk.out), 65536) << disk.out;      // the working file's [128, 128]
  // The unchanged module's own findings are not this change's.
  const nlohmann::json report = nlohmann::json::parse(staged.out);
  for (const auto& d : report["diagnostics"]) EXPECT_NE(d["file"], "pypto-lib/models/m/layers.py") << d;
  EXPECT_EQ(report["run"]["files"], nlohmann::json::array({"pypto-lib/models/m/decode.py"}));
}

}  // namespace
}  // namespace portcheck

// port-check new: the scaffolded project is complete, has its placeholders filled, and lints clean.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <regex>

#include <nlohmann/json.hpp>

#include "scaffold/scaffold.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

class Scaffold : public ::testing::Test {
 protected:
  void SetUp() override { ws.write(".git/HEAD", "ref: refs/heads/main\n"); }
  test::CommandResult create(const std::string& name, const std::string& kind = "op", bool kernel = false) {
    NewOptions no;
    no.name = name;
    no.kind = kind;
    no.kernel = kernel;
    auto o = test::optionsIn(ws.path());
    return test::runInProcess([&](const Io& io) { return runNew(o, no, io); });
  }
  test::CommandResult lint(const std::string& path) {
    auto o = test::optionsIn(ws.path());
    return test::runInProcess([&](const Io& io) { return runLint(o, {path}, io); });
  }
  test::TempDir ws;
};

TEST_F(Scaffold, OpProjectHasTheLayoutAndLintsClean) {
  auto r = create("rmsnorm");
  ASSERT_EQ(r.exit_code, kExitClean) << r.err;
  for (const char* f : {"PORTING.md", "original/README.md", "pypto_src/golden.py", "pypto_src/orchestration.py",
                        "pypto_src/incore.py"})
    EXPECT_TRUE(fs::is_regular_file(ws / ("projects/rmsnorm/" + std::string(f)))) << f;
  auto l = lint("projects/rmsnorm");
  EXPECT_EQ(l.exit_code, kExitClean) << l.out;
  // The skeleton walks its row blocks in one task: the device-time model's one piece of advice is to
  // spread them over the idle cores (PERF002), the port's first schedule decision. The skeleton's golden.py
  // declares its CONTRACT (docs/contract.md), so no PROJ rule fires.
  EXPECT_NE(l.out.find("0 errors, 0 warnings, 1 info"), std::string::npos) << l.out;
  EXPECT_EQ(l.out.find("[PROJ"), std::string::npos) << l.out;
  EXPECT_NE(l.out.find("[PERF002]"), std::string::npos) << l.out;
}

TEST_F(Scaffold, TheTemplatesSramFigureIsTheEstimators) {
  ASSERT_EQ(create("rows").exit_code, kExitClean);
  auto o = test::optionsIn(ws.path(), Format::Json);
  auto l = test::runInProcess([&](const Io& io) { return runLint(o, {"projects/rows"}, io); });
  nlohmann::json j = nlohmann::json::parse(l.out);
  std::optional<std::int64_t> estimate;
  for (const auto& r : j["sram"])
    if (r["function"] == "scale_add_rows" && r["space"] == "Vec") estimate = r["estimate"].get<std::int64_t>();
  ASSERT_TRUE(estimate) << l.out;
  // incore.py's docstring: "... = 65536 B (35 %)"; PORTING.md's plan: "Vec 65536 B (35 % of 188416)".
  std::smatch m;
  std::string incore = test::readFile(ws / "projects/rows/pypto_src/incore.py");
  ASSERT_TRUE(std::regex_search(incore, m, std::regex(R"(= (\d+) B \((\d+) %\))"))) << incore;
  EXPECT_EQ(std::stoll(m[1]), *estimate);
  EXPECT_EQ(std::stoll(m[2]), (*estimate * 100 + 188416 / 2) / 188416);
  std::string plan = test::readFile(ws / "projects/rows/PORTING.md");
  ASSERT_TRUE(std::regex_search(plan, m, std::regex(R"(Vec (\d+) B)"))) << plan;
  EXPECT_EQ(std::stoll(m[1]), *estimate);
}

TEST_F(Scaffold, ModelProjectWithTheAutoKernelLintsClean) {
  auto r = create("qwen3_decode", "model", /*kernel=*/true);
  ASSERT_EQ(r.exit_code, kExitClean) << r.err;
  EXPECT_TRUE(fs::is_regular_file(ws / "projects/qwen3_decode/pypto_src/kernels/auto_row_softmax.cpp"));
  EXPECT_NE(test::readFile(ws / "projects/qwen3_decode/PORTING.md").find("Operator inventory"), std::string::npos);
  auto l = lint("projects/qwen3_decode");
  EXPECT_EQ(l.exit_code, kExitClean) << l.out;
  // An info may say the kernel compile check was skipped (no PTO-ISA headers beside the workspace); the
  // skeleton golden.py declares its CONTRACT, so no warning.
  EXPECT_NE(l.out.find("0 errors, 0 warnings,"), std::string::npos) << l.out;
  EXPECT_EQ(l.out.find("[PROJ"), std::string::npos) << l.out;
}

TEST_F(Scaffold, PlaceholdersAreFilledEverywhere) {
  ASSERT_EQ(create("paged-attn", "model").exit_code, kExitClean);
  for (const auto& e : fs::recursive_directory_iterator(ws / "projects/paged-attn")) {
    if (!e.is_regular_file()) continue;
    std::string text = test::readFile(e.path());
    EXPECT_EQ(text.find("{{"), std::string::npos) << e.path();
  }
  EXPECT_NE(test::readFile(ws / "projects/paged-attn/PORTING.md").find("# Porting paged-attn to PyPTO v3 (model)"),
            std::string::npos);
}

TEST_F(Scaffold, RefusesAnExistingProjectAndBadNames) {
  ASSERT_EQ(create("softmax").exit_code, kExitClean);
  std::string golden = test::readFile(ws / "projects/softmax/pypto_src/golden.py");
  auto again = create("softmax");
  EXPECT_EQ(again.exit_code, kExitToolError);
  EXPECT_NE(again.err.find("already exists"), std::string::npos);
  EXPECT_EQ(test::readFile(ws / "projects/softmax/pypto_src/golden.py"), golden);
  for (const char* bad : {"", "Softmax", "../escape", "a b", "-x", "x/y"}) {
    auto r = create(bad);
    EXPECT_EQ(r.exit_code, kExitToolError) << bad;
    EXPECT_NE(r.err.find("project name"), std::string::npos) << bad << r.err;
  }
  EXPECT_FALSE(fs::exists(ws / "escape"));
  EXPECT_EQ(create("x", "library").exit_code, kExitToolError);
}

TEST_F(Scaffold, AnEmptyFolderMayBeFilled) {
  fs::create_directories(ws / "projects/empty");
  EXPECT_EQ(create("empty").exit_code, kExitClean);
}

TEST(ScaffoldFromAnywhere, TheBinaryScaffoldsWithItsBuiltInTemplates) {
  test::TempDir ws;
  auto r = test::runBinary("new layer_norm --kind op", ws.path(), /*merge_stderr=*/true);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("created projects/layer_norm/ (op, 5 files)"), std::string::npos) << r.out;
  auto l = test::runBinary("lint projects/layer_norm", ws.path());
  EXPECT_EQ(l.exit_code, 0) << l.out;
}

TEST(ScaffoldSkeleton, TemplatesAreCompleteAndKindsDiffer) {
  auto op = projectSkeleton({"a", ProjectKind::Op, false});
  auto model = projectSkeleton({"a", ProjectKind::Model, true});
  ASSERT_EQ(op.size(), 5u);
  ASSERT_EQ(model.size(), 6u);
  auto find = [](const std::vector<ScaffoldFile>& v, const std::string& p) -> std::string {
    for (const auto& f : v)
      if (f.path == p) return f.bytes;
    return "";
  };
  EXPECT_NE(find(op, "PORTING.md"), find(model, "PORTING.md"));
  EXPECT_EQ(find(op, "pypto_src/incore.py"), find(model, "pypto_src/incore.py"));
  EXPECT_NE(find(op, "pypto_src/golden.py").find("def compute_golden(tensors, params=None):"), std::string::npos);
  EXPECT_NE(find(model, "pypto_src/kernels/auto_row_softmax.cpp").find("TROWEXPANDDIV"), std::string::npos);
}

}  // namespace
}  // namespace portcheck

// AUTO mode from the build (kernel/build_evidence.h): a source that never tests __PTO_AUTO__ is an AUTO kernel
// when port-check's --define, the file's compile_commands.json entry or a CMakeLists.txt of its folder (or a
// parent) compiles it so, and its AUTO findings say which evidence decided. The kernel is a small manual-looking
// one of our own (TASSIGN and set_flag/wait_flag, like pto-isa's kernels/automode/a5/flash_atten, whose
// CMakeLists.txt passes --cce-pto-auto-enable).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "clangcheck/kernel_compile.h"
#include "kernel/build_evidence.h"
#include "lint/linters.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

const char* kManualLooking =
    "#include <pto/pto-inst.hpp>\n"
    "using namespace pto;\n"
    "using V = Tile<TileType::Vec, float, 16, 64>;\n"
    "AICORE void k(V& src) {\n"
    "  V dst;\n"
    "  TASSIGN(dst, 0x0);\n"
    "  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);\n"
    "  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);\n"
    "  TEXP(dst, src);\n"
    "}\n";

std::vector<Diagnostic> lintWith(const std::string& rel, std::shared_ptr<const kernel::BuildEvidence> build) {
  static const Config config;
  LintSettings settings;
  settings.config = &config;
  settings.kernel_build = std::move(build);
  SourceFile f;
  f.path = rel;
  f.text = kManualLooking;
  return lintKernelFile(f, settings);
}

bool has(const std::vector<Diagnostic>& ds, const std::string& rule) {
  return std::any_of(ds.begin(), ds.end(), [&](const Diagnostic& d) { return d.rule == rule; });
}

TEST(BuildEvidence, WithoutEvidenceTheSourceDecides) {
  test::TempDir ws;
  auto none = std::make_shared<const kernel::BuildEvidence>(ws.path(), std::vector<std::string>{}, std::nullopt);
  EXPECT_FALSE(none->modeOf("k/kernel.cpp"));
  auto ds = lintWith("k/kernel.cpp", none);
  EXPECT_TRUE(has(ds, "ISA014"));  // manual-mode kernel, said once
  EXPECT_FALSE(has(ds, "AUTO001"));
}

TEST(BuildEvidence, ACMakeFolderDefinitionMakesTheKernelAutoAndTheFindingsSaySo) {
  test::TempDir ws;
  ws.write("k/CMakeLists.txt", "# auto-mode tests\npto_cpu_sim_st(kernel)\nadd_compile_definitions(__PTO_AUTO__)\n");
  auto build = std::make_shared<const kernel::BuildEvidence>(ws.path(), std::vector<std::string>{}, std::nullopt);
  auto mode = build->modeOf("k/kernel.cpp");
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode->file, "k/CMakeLists.txt");
  EXPECT_EQ(mode->line, 3);
  auto ds = lintWith("k/kernel.cpp", build);
  EXPECT_FALSE(has(ds, "ISA014"));
  ASSERT_TRUE(has(ds, "AUTO001"));
  ASSERT_TRUE(has(ds, "AUTO002"));
  for (const Diagnostic& d : ds) {
    if (!d.rule.starts_with("AUTO")) continue;
    ASSERT_FALSE(d.notes.empty()) << d.rule;
    EXPECT_EQ(d.notes.back().file, "k/CMakeLists.txt");
    EXPECT_NE(d.notes.back().message.find("decided by the build"), std::string::npos);
  }
}

TEST(BuildEvidence, BishengsAutoFlagInAParentCMakeListsCounts) {
  test::TempDir ws;
  ws.write("kernels/CMakeLists.txt",
           "set(CMAKE_CCE_COMPILE_OPTIONS\n    -xcce\n    --cce-pto-enable\n    --cce-pto-auto-enable\n)\n");
  auto build = std::make_shared<const kernel::BuildEvidence>(ws.path(), std::vector<std::string>{}, std::nullopt);
  auto mode = build->modeOf("kernels/fa/kernel.cpp");
  ASSERT_TRUE(mode);
  EXPECT_NE(mode->evidence.find("kernels/CMakeLists.txt:1"), std::string::npos) << mode->evidence;
  EXPECT_NE(mode->evidence.find("--cce-pto-auto-enable"), std::string::npos);
  EXPECT_FALSE(build->modeOf("other/kernel.cpp"));  // not under that folder
}

TEST(BuildEvidence, ATargetsDefinitionCountsOnlyForItsOwnSources) {
  test::TempDir ws;
  ws.write("k/CMakeLists.txt",
           "add_executable(auto_k auto_kernel.cpp)\nadd_executable(manual_k manual_kernel.cpp)\n"
           "target_compile_definitions(auto_k PRIVATE __PTO_AUTO__)\n");
  auto build = std::make_shared<const kernel::BuildEvidence>(ws.path(), std::vector<std::string>{}, std::nullopt);
  EXPECT_TRUE(build->modeOf("k/auto_kernel.cpp"));
  EXPECT_FALSE(build->modeOf("k/manual_kernel.cpp"));
}

TEST(BuildEvidence, CommentsAndConditionsAreNoEvidence) {
  test::TempDir ws;
  ws.write("k/CMakeLists.txt", "# add_compile_definitions(__PTO_AUTO__)\nif(DEFINED __PTO_AUTO__)\nendif()\n");
  auto build = std::make_shared<const kernel::BuildEvidence>(ws.path(), std::vector<std::string>{}, std::nullopt);
  EXPECT_FALSE(build->modeOf("k/kernel.cpp"));
}

TEST(BuildEvidence, CompileCommandsEntryDecidesAndGivesIncludeDirectories) {
  test::TempDir ws;
  std::string dir = (ws / "build").string();
  nlohmann::json db = nlohmann::json::array();
  db.push_back({{"directory", dir},
                {"file", (ws / "k" / "kernel.cpp").string()},
                {"command", "bisheng -xcce --cce-pto-auto-enable -I../shared -isystem /opt/sdk/include -c ../k/kernel.cpp"}});
  db.push_back({{"directory", dir}, {"file", "../k/manual.cpp"}, {"arguments", {"clang++", "-DFOO", "-c", "../k/manual.cpp"}}});
  ws.write("build/compile_commands.json", db.dump());
  auto build = std::make_shared<const kernel::BuildEvidence>(ws.path(), std::vector<std::string>{}, std::nullopt);
  auto mode = build->modeOf("k/kernel.cpp");
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode->evidence, "build/compile_commands.json: its entry for the file passes --cce-pto-auto-enable");
  EXPECT_FALSE(build->modeOf("k/manual.cpp"));
  auto dirs = build->includeDirsOf("k/kernel.cpp");
  ASSERT_EQ(dirs.size(), 2u);
  EXPECT_EQ(dirs[0], (ws / "shared").string());
  EXPECT_EQ(dirs[1], "/opt/sdk/include");
  EXPECT_NE(build->fingerprint("k/kernel.cpp"), build->fingerprint("k/manual.cpp"));
}

TEST(BuildEvidence, ABadCompileCommandsFileIsSaidNotIgnoredSilently) {
  test::TempDir ws;
  ws.write("cc.json", "{\"not\": \"a database\"}");
  auto bad = std::make_shared<const kernel::BuildEvidence>(ws.path(), std::vector<std::string>{}, fs::path("cc.json"));
  EXPECT_NE(bad->problem().find("not a JSON compilation database"), std::string::npos) << bad->problem();
  auto missing = std::make_shared<const kernel::BuildEvidence>(ws.path(), std::vector<std::string>{}, fs::path("nowhere.json"));
  EXPECT_NE(missing->problem().find("does not exist"), std::string::npos) << missing->problem();
}

TEST(BuildEvidence, PortChecksDefineDecidesFirst) {
  test::TempDir ws;
  auto build = std::make_shared<const kernel::BuildEvidence>(ws.path(), std::vector<std::string>{"__PTO_AUTO__"}, std::nullopt);
  auto mode = build->modeOf("k/kernel.cpp");
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode->evidence, "port-check was given -D __PTO_AUTO__");
  // The compile check builds such a kernel with __PTO_AUTO__ too.
  SourceFile f;
  f.path = "k/kernel.cpp";
  f.text = kManualLooking;
  auto plan = clangcheck::planKernel(f, build.get(), {"__PTO_AUTO__", "MODE_DN"});
  ASSERT_FALSE(plan.variants.empty());
  EXPECT_EQ(std::count(plan.variants[0].begin(), plan.variants[0].end(), "__PTO_AUTO__"), 1);
  EXPECT_EQ(std::count(plan.variants[0].begin(), plan.variants[0].end(), "MODE_DN"), 1);
  plan = clangcheck::planKernel(f);
  EXPECT_EQ(std::count(plan.variants[0].begin(), plan.variants[0].end(), "__PTO_AUTO__"), 0);
}

// The command line end to end: `lint -D __PTO_AUTO__` reports the manual-mode leftovers and names the evidence.
TEST(BuildEvidence, TheDefineOptionReachesTheLintJson) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("k/kernel.cpp", kManualLooking);
  auto plain = test::runBinary("lint --format json --no-kernel-compile k", ws.path());
  EXPECT_EQ(plain.out.find("\"rule\": \"AUTO001\""), std::string::npos) << plain.out;
  auto r = test::runBinary("lint --format json --no-kernel-compile -D __PTO_AUTO__ k", ws.path());
  EXPECT_NE(r.out.find("\"rule\": \"AUTO001\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("port-check was given -D __PTO_AUTO__"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace portcheck

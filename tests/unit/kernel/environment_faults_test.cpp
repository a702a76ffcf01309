// Environment faults of the kernel compile check (clangcheck/environment_faults.h) on recorded clang-19 output
// of small kernels of our own (tests/fixtures/kernel/clang/env: <ws> is the workspace, <pto-isa> the headers
// clang used; the pin-mismatch case was compiled against pto-isa 8c33dd6f, the others against the runtime's
// pin cd4a3d3f). The header trees are small stand-ins made in a temporary folder: each names only what the
// classification looks up.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "clangcheck/clang_output.h"
#include "clangcheck/environment_faults.h"
#include "clangcheck/kernel_compile.h"
#include "clangcheck/pto_isa_headers.h"
#include "core/text.h"
#include "test_support.h"

namespace portcheck::clangcheck {
namespace {

namespace fs = std::filesystem;

struct EnvSetup {
  test::TempDir t;
  fs::path ws, used, pinned;
  EnvSetup() {
    ws = t / "ws";
    used = t / "used-isa";
    pinned = t / "pinned-isa";
    t.write("ws/.git/HEAD", "ref: refs/heads/main\n");
    t.write("ws/shared/comm_defs.hpp", "#pragma once\n");
    t.write("used-isa/include/pto/pto-inst.hpp", "// the used pin\nstruct CommDeviceContext {};\n");
    t.write("used-isa/include/pto/common/cpu_stub.hpp", "struct CommDeviceContext {};\n");
    t.write("used-isa/tests/npu/a2a3/ffts/ffts_kernel.cpp", "void k() { set_ffts_base_addr(0); }\n");
    t.write("pinned-isa/include/pto/pto-inst.hpp", "// the runtime's pin\nvoid TMULADDDST();\n");
  }
  // The recorded output with its placeholders pointing at this setup.
  std::vector<Diagnostic> classify(const std::string& kernel, bool with_pin = true) {
    std::string out = test::readFile(fs::path(test::fixturesDir()) / "kernel" / "clang" / "env" / (kernel + ".txt"));
    out = replaceAll(out, "<ws>", ws.string());
    out = replaceAll(out, "<pto-isa>", used.string());
    std::string text = test::readFile(fs::path(test::fixturesDir()) / "kernel" / "clang" / "env" / (kernel + ".cpp"));
    PathMapping paths{(ws / "k" / (kernel + ".cpp")).string(), "k/" + kernel + ".cpp", used.string(), ws.string()};
    HeaderTrees trees(used, with_pin ? std::optional<fs::path>(pinned) : std::nullopt, ws);
    return classifyClangRun(parseClangOutput(out), {paths, text}, trees);
  }
};

std::vector<std::string> rulesOf(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> r;
  for (const Diagnostic& d : ds) r.push_back(d.rule);
  return r;
}

TEST(EnvironmentFaults, AnSdkHeaderIsAToolFindingNotAKernelError) {
  EnvSetup s;
  auto ds = s.classify("sdk_header");
  ASSERT_EQ(rulesOf(ds), std::vector<std::string>{"TOOL009"});
  EXPECT_EQ(ds[0].severity, Severity::Warning);
  EXPECT_EQ(ds[0].source, Stage::Tool);
  EXPECT_EQ(ds[0].file, "k/sdk_header.cpp");
  EXPECT_EQ(ds[0].line, 3);
  EXPECT_NE(ds[0].message.find("'acl/acl.h'"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].message.find("neither the workspace nor the PTO-ISA headers"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].hint.find("#ifndef __CPU_SIM"), std::string::npos);
}

TEST(EnvironmentFaults, AWorkspaceHeaderOffTheIncludePathNamesWhereItIs) {
  EnvSetup s;
  auto ds = s.classify("own_header");
  ASSERT_EQ(rulesOf(ds), std::vector<std::string>{"TOOL009"});
  EXPECT_NE(ds[0].message.find("the workspace has it at shared/comm_defs.hpp"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].hint.find("--compile-commands"), std::string::npos);
}

TEST(EnvironmentFaults, AnIdentifierOfTheRuntimesPinMissingFromTheUsedHeadersIsAPinMismatch) {
  EnvSetup s;
  auto ds = s.classify("new_instruction");
  ASSERT_EQ(rulesOf(ds), std::vector<std::string>{"TOOL009"});
  EXPECT_EQ(ds[0].line, 8);
  EXPECT_NE(ds[0].message.find("'TMULADDDST'"), std::string::npos);
  EXPECT_NE(ds[0].message.find("runtime's pin"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].hint.find(s.pinned.string()), std::string::npos) << ds[0].hint;
  // Without a runtime pin to compare with, the same error is the kernel's: ISA009.
  EXPECT_EQ(rulesOf(s.classify("new_instruction", false)), std::vector<std::string>{"ISA009"});
}

TEST(EnvironmentFaults, AnNpuBuiltinThePtoIsaSourcesCallIsNamed) {
  EnvSetup s;
  auto ds = s.classify("npu_builtin");
  ASSERT_EQ(rulesOf(ds), std::vector<std::string>{"TOOL009"});
  EXPECT_NE(ds[0].message.find("'set_ffts_base_addr'"), std::string::npos);
  EXPECT_NE(ds[0].message.find("tests/npu/a2a3/ffts/ffts_kernel.cpp"), std::string::npos) << ds[0].message;
}

TEST(EnvironmentFaults, AnUndeclaredNameNoTreeKnowsStaysAKernelError) {
  EnvSetup s;
  PathMapping paths{(s.ws / "k" / "typo.cpp").string(), "k/typo.cpp", s.used.string(), s.ws.string()};
  HeaderTrees trees(s.used, s.pinned, s.ws);
  auto ds = classifyClangRun(
      parseClangOutput(paths.kernel_as_printed + ":4:3: error: use of undeclared identifier 'TEXPP'\n"), {paths, ""},
      trees);
  ASSERT_EQ(rulesOf(ds), std::vector<std::string>{"ISA009"});
}

TEST(EnvironmentFaults, CceLaunchSyntaxIsOneFindingForItsErrors) {
  EnvSetup s;
  auto ds = s.classify("cce_launch");
  ASSERT_EQ(rulesOf(ds), std::vector<std::string>{"TOOL009"});
  EXPECT_EQ(ds[0].line, 8);
  EXPECT_NE(ds[0].message.find("<<<...>>>"), std::string::npos);
  EXPECT_NE(ds[0].message.find("2 clang errors in this run"), std::string::npos) << ds[0].message;
}

TEST(EnvironmentFaults, ADefinitionTheCpuStubsAlsoMakeIsAClashOfTheSimulator) {
  EnvSetup s;
  auto ds = s.classify("stub_clash");
  ASSERT_EQ(rulesOf(ds), std::vector<std::string>{"TOOL009"});
  EXPECT_EQ(ds[0].line, 5);
  EXPECT_NE(ds[0].message.find("cpu_stub.hpp:172"), std::string::npos) << ds[0].message;
  ASSERT_EQ(ds[0].notes.size(), 1u);
  EXPECT_EQ(ds[0].notes[0].file, "<pto-isa>/include/pto/common/cpu_stub.hpp");
}

TEST(EnvironmentFaults, HeaderErrorsNoKernelLineInstantiatesAreOneFinding) {
  // constants.hpp before pto-inst.hpp (tests/fixtures/kernel/clang/include_order): four errors in memory.hpp.
  test::TempDir t;
  t.write("isa/include/pto/pto-inst.hpp", "\n");
  std::string out = test::readFile(fs::path(test::fixturesDir()) / "kernel" / "clang" / "include_order.txt");
  PathMapping paths{"include_order.cpp", "k/include_order.cpp", "<pto-isa>", ""};
  HeaderTrees trees(t / "isa", std::nullopt, t.path());
  auto ds = classifyClangRun(parseClangOutput(out), {paths, ""}, trees);
  ASSERT_EQ(rulesOf(ds), std::vector<std::string>{"TOOL009"});
  EXPECT_EQ(ds[0].line, 1);
  EXPECT_NE(ds[0].message.find("do not compile for the CPU simulator"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].message.find("unknown type name '__ubuf__'"), std::string::npos);
}

TEST(EnvironmentFaults, KernelErrorsAndWarningsWithoutAnEnvironmentCauseStay) {
  test::TempDir t;
  t.write("isa/include/pto/pto-inst.hpp", "\n");
  HeaderTrees trees(t / "isa", std::nullopt, t.path());
  for (const char* kernel : {"missing_tmp", "mixed_dtype_add", "cpp17_designated_init"}) {
    std::string out = test::readFile(fs::path(test::fixturesDir()) / "kernel" / "clang" / (std::string(kernel) + ".txt"));
    PathMapping paths{std::string(kernel) + ".cpp", std::string("k/") + kernel + ".cpp", "<pto-isa>", ""};
    auto ds = classifyClangRun(parseClangOutput(out), {paths, ""}, trees);
    auto plain = toDiagnostics(parseClangOutput(out), paths);
    EXPECT_EQ(rulesOf(ds), rulesOf(plain)) << kernel;
    for (const Diagnostic& d : ds) EXPECT_NE(d.rule, "TOOL009") << kernel;
  }
}

TEST(EnvironmentFaults, TheCommitOfACheckoutIsReadFromItsGitFolder) {
  test::TempDir t;
  t.write("isa/.git/HEAD", "ref: refs/heads/main\n");
  t.write("isa/.git/refs/heads/main", "cd4a3d3f7a1a27fcfe536f617e9bca3008929664\n");
  EXPECT_EQ(HeaderTrees::commitOf(t / "isa"), "cd4a3d3f");
  t.write("detached/.git/HEAD", "3186c381bd49aaaa0000000000000000000000ff\n");
  EXPECT_EQ(HeaderTrees::commitOf(t / "detached"), "3186c381");
  EXPECT_EQ(HeaderTrees::commitOf(t / "nothing"), "");
}

// The block_idx mapping: a kernel that uses the NPU built-in gets the prelude; one that declares its own
// block_idx variable (pto-isa kernels/custom/fused_add_relu_mul) is left alone.
TEST(KernelPlanBlockIdx, OnlyTheBuiltinIsMappedAndOnlyAfterTheHeaders) {
  SourceFile f;
  f.path = "k.cpp";
  f.text = "using V = Tile<TileType::Vec, float, 16, 64>;\nAICORE void k(V& v) { int b = block_idx; TEXP(v, v); }\n";
  KernelPlan plan = planKernel(f);
  EXPECT_TRUE(plan.block_idx_prelude);
  for (const auto& v : plan.variants) EXPECT_EQ(std::count(v.begin(), v.end(), "block_idx=get_block_idx()"), 0);
  f.text = "using V = Tile<TileType::Vec, float, 16, 64>;\nAICORE void k(V& v) { int block_idx = get_block_idx(); "
           "TEXP(v, v); }\n";
  plan = planKernel(f);
  EXPECT_FALSE(plan.block_idx_prelude);
  EXPECT_TRUE(plan.notices.empty());
  auto a = clangArguments("clang++-19", "<pto-isa>", {"__DAV_VEC__"}, "k.cpp", {{"<sdk>/include"}, "<ws>/p.h"});
  std::string joined;
  for (const auto& s : a) joined += s + " ";
  EXPECT_NE(joined.find("-isystem <pto-isa>/include -I<sdk>/include -include <ws>/p.h -include stdint.h"),
            std::string::npos)
      << joined;
}

// End to end with clang++-19 and the real headers: the SDK-header kernel gets TOOL009 and no ISA009.
TEST(EnvironmentFaults, RealCompileReportsTheMissingSdkHeaderOnce) {
  fs::path headers;
  if (const char* env = std::getenv("PTO_ISA_ROOT"); env && *env) headers = env;
  else headers = fs::path(test::sourceDir()).parent_path() / "pto-isa";
  if (!isPtoIsaTree(headers)) GTEST_SKIP() << "no PTO-ISA checkout (set PTO_ISA_ROOT or clone pto-isa beside the repo)";
  if (!findExecutable("clang++-19", std::getenv("PATH"))) GTEST_SKIP() << "clang++-19 not on PATH";
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  fs::path env_fixtures = fs::path(test::fixturesDir()) / "kernel" / "clang" / "env";
  for (const char* k : {"sdk_header", "cce_launch"})
    ws.write(std::string("k/") + k + ".cpp", test::readFile(env_fixtures / (std::string(k) + ".cpp")));
  auto o = test::optionsIn(ws.path(), Format::Json);
  o.kernel_compile.pto_isa = headers;
  const char* path = std::getenv("PATH");
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"k"}, io); }, {{"PATH", path ? path : ""}});
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> found;
  for (const auto& d : j["diagnostics"])
    if (d["rule"] != "ISA011") found.push_back(d["rule"].get<std::string>() + "@" + d["file"].get<std::string>());
  EXPECT_EQ(found, (std::vector<std::string>{"TOOL009@k/cce_launch.cpp", "TOOL009@k/sdk_header.cpp"})) << r.out;
  EXPECT_EQ(r.exit_code, kExitClean) << r.out;
}

}  // namespace
}  // namespace portcheck::clangcheck

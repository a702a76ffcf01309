// The kernel compile check: clang output parsing on recorded clang-19 output (tests/fixtures/kernel/clang,
// paths replaced by <pto-isa>), header discovery, the plan per kernel, and the real compile end to end when
// clang++-19 and the PTO-ISA headers are present.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "clangcheck/clang_output.h"
#include "clangcheck/kernel_compile.h"
#include "clangcheck/pto_isa_headers.h"
#include "test_support.h"

namespace portcheck::clangcheck {
namespace {

namespace fs = std::filesystem;

std::string recorded(const std::string& name) {
  return test::readFile(fs::path(test::fixturesDir()) / "kernel" / "clang" / name);
}

std::vector<Diagnostic> diagnose(const std::string& kernel) {
  PathMapping paths{kernel + ".cpp", "pypto_src/" + kernel + ".cpp", "<pto-isa>"};
  return toDiagnostics(parseClangOutput(recorded(kernel + ".txt")), paths);
}

TEST(ClangOutput, HeaderErrorsMoveToTheKernelLineThatInstantiatedThem) {
  auto ds = diagnose("mixed_dtype_add");
  ASSERT_EQ(ds.size(), 2u);
  // Tile<Vec, float, 16, 6>: static_assert in pto_tile.hpp, requested at the declaration.
  EXPECT_EQ(ds[0].rule, "ISA009");
  EXPECT_EQ(ds[0].file, "pypto_src/mixed_dtype_add.cpp");
  EXPECT_EQ(ds[0].line, 16);
  EXPECT_EQ(ds[0].column, 37);
  EXPECT_EQ(ds[0].message.rfind("static assertion failed: BFractal_ is RowMajor", 0), 0u) << ds[0].message;
  ASSERT_FALSE(ds[0].notes.empty());
  EXPECT_EQ(ds[0].notes[0].file, "<pto-isa>/include/pto/common/pto_tile.hpp");
  EXPECT_EQ(ds[0].notes[0].line, 1523);
  // TADD(float, float, half) inside a helper template: the first kernel line of the chain is the TADD call.
  EXPECT_EQ(ds[1].message, "no matching function for call to 'TADD_IMPL'");
  EXPECT_EQ(ds[1].line, 9);
  EXPECT_EQ(ds[1].column, 3);
  bool caller_note = false, candidate_note = false;
  for (const DiagnosticNote& n : ds[1].notes) {
    caller_note |= n.file == "pypto_src/mixed_dtype_add.cpp" && n.line == 15;
    candidate_note |= n.file == "<pto-isa>/include/pto/cpu/TAdd.hpp" && n.message.find("conflicting types") != std::string::npos;
    EXPECT_NE(n.file, "<scratch space>");
  }
  EXPECT_TRUE(caller_note);
  EXPECT_TRUE(candidate_note);
}

TEST(ClangOutput, ErrorsInTheKernelStayAndKeepTheirCandidates) {
  auto ds = diagnose("missing_tmp");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].line, 8);
  EXPECT_EQ(ds[0].column, 3);
  EXPECT_EQ(ds[0].message, "no matching function for call to 'TROWSUM'");
  ASSERT_EQ(ds[0].notes.size(), 1u);
  EXPECT_NE(ds[0].notes[0].message.find("requires at least 3 arguments"), std::string::npos);
  EXPECT_EQ(ds[0].source, Stage::Compiler);
}

TEST(ClangOutput, WarningsBecomeIsa010) {
  auto ds = diagnose("cpp17_designated_init");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].rule, "ISA010");
  EXPECT_EQ(ds[0].severity, Severity::Warning);
  EXPECT_EQ(ds[0].line, 13);
  EXPECT_NE(ds[0].message.find("-Wpre-c++20-compat-pedantic"), std::string::npos);
}

TEST(ClangOutput, HeaderErrorsWithoutAChainPointAtTheKernelsInclude) {
  // constants.hpp before pto-inst.hpp: the CCE keywords are not defined yet on the CPU simulator.
  auto ds = diagnose("include_order");
  ASSERT_EQ(ds.size(), 4u);
  for (const Diagnostic& d : ds) {
    EXPECT_EQ(d.line, 1) << d.message;
    EXPECT_EQ(d.column, 1);
    ASSERT_FALSE(d.notes.empty());
    EXPECT_EQ(d.notes[0].file, "<pto-isa>/include/pto/common/memory.hpp");
  }
  EXPECT_EQ(ds[0].message, "unknown type name '__ubuf__'");
}

TEST(ClangOutput, CleanOutputAndNoiseGiveNothing) {
  EXPECT_TRUE(diagnose("clean_vec_kernel").empty());
  EXPECT_TRUE(parseClangOutput("In file included from k.cpp:1:\n2 errors generated.\n  TADD(a);\n  ^\n").empty());
  EXPECT_TRUE(parseClangOutput("").empty());
}

TEST(PtoIsaHeaders, ExplicitDirectoryEnvironmentAndSiblingAreSearchedInOrder) {
  test::TempDir t;
  t.write("ws/.git/HEAD", "ref: refs/heads/main\n");
  t.write("env-isa/include/pto/pto-inst.hpp", "\n");
  t.write("pto-isa/include/pto/pto-inst.hpp", "\n");
  auto env = [&](const char* name) -> const char* {
    static std::string v;
    v = (t / "env-isa").string();
    return std::string(name) == "PTO_ISA_ROOT" ? v.c_str() : nullptr;
  };
  auto none = [](const char*) -> const char* { return nullptr; };
  auto h = locatePtoIsa(t / "ws", std::nullopt, std::nullopt, env);
  EXPECT_TRUE(h.found);
  EXPECT_EQ(h.origin, "PTO_ISA_ROOT");
  h = locatePtoIsa(t / "ws", std::nullopt, std::nullopt, none);
  EXPECT_TRUE(h.found);
  EXPECT_EQ(h.origin, "../pto-isa");
  h = locatePtoIsa(t / "ws", t / "missing", std::nullopt, env);
  EXPECT_FALSE(h.found);
  EXPECT_NE(h.why_not.find("--pto-isa"), std::string::npos);
}

TEST(PtoIsaHeaders, ThePyptoRuntimeCopyIsTheLastResort) {
  test::TempDir t;
  t.write("pypto/runtime/build/pto-isa/include/pto/pto-inst.hpp", "\n");
  auto none = [](const char*) -> const char* { return nullptr; };
  auto h = locatePtoIsa(t / "ws", std::nullopt, t / "pypto", none);
  EXPECT_TRUE(h.found);
  EXPECT_EQ(h.origin, "pypto runtime");
  h = locatePtoIsa(t / "ws", std::nullopt, std::nullopt, none);
  EXPECT_FALSE(h.found);
  EXPECT_NE(h.why_not.find("pto-isa (../pto-isa)"), std::string::npos) << h.why_not;
}

TEST(KernelPlan, CoreGuardsGiveOneVariantPerCoreAndFalseFailuresAreAnnounced) {
  SourceFile f;
  f.path = "k.cpp";
  f.text =
      "void k() {\n#if defined(__DAV_CUBE__)\n TMATMUL(c, a, b);\n#endif\n#ifdef __DAV_VEC__\n TSQRT(v, v);\n#endif\n"
      " int b = block_idx;\n}\n";
  KernelPlan plan = planKernel(f);
  ASSERT_EQ(plan.variants.size(), 2u);
  for (const auto& v : plan.variants)
    EXPECT_EQ(std::count(v.begin(), v.end(), "__PTO_AUTO__"), 0) << "TSQRT kernels compile without __PTO_AUTO__";
  EXPECT_TRUE(plan.block_idx_prelude);  // block_idx -> get_block_idx() after the headers (environment_faults_test)
  EXPECT_EQ(plan.variants[0].back(), "__DAV_VEC__");
  EXPECT_EQ(plan.variants[1].back(), "__DAV_CUBE__");
  ASSERT_EQ(plan.notices.size(), 2u);
  EXPECT_EQ(plan.notices[0].rule, "ISA011");
  f.text = "void k(V& v) { TEXP(v, v); }\n";
  plan = planKernel(f);
  ASSERT_EQ(plan.variants.size(), 1u);
  EXPECT_EQ(plan.variants[0], (std::vector<std::string>{"__PTO_AUTO__", "__DAV_VEC__"}));
  EXPECT_TRUE(plan.notices.empty());
}

TEST(KernelPlan, TheCommandIsTheDocumentedSyntaxCheck) {
  auto a = clangArguments("clang++-19", "/opt/pto-isa", {"__PTO_AUTO__", "__DAV_VEC__"}, "k.cpp");
  std::string joined;
  for (const auto& s : a) joined += s + " ";
  EXPECT_EQ(joined,
            "clang++-19 -std=c++20 -fsyntax-only -D__CPU_SIM -D__PTO_AUTO__ -D__DAV_VEC__ -isystem /opt/pto-isa/include "
            "-include stdint.h -include stddef.h -Wno-ignored-attributes -Wpre-c++20-compat-pedantic "
            "-fno-color-diagnostics -fno-caret-diagnostics -ferror-limit=50 k.cpp ");
}

// Lint with no headers anywhere: the stage is skipped with TOOL003 and the exit status stays clean.
TEST(KernelCompileStage, MissingHeadersAreAnnouncedNotFailed) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("kernels/k.cpp", "using V = Tile<TileType::Vec, float, 16, 64>;\nAICORE void k(V& v) { TEXP(v, v); }\n");
  auto o = test::optionsIn(ws.path(), Format::Json);
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"kernels"}, io); });
  EXPECT_EQ(r.exit_code, kExitClean) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["diagnostics"].size(), 1u) << r.out;
  EXPECT_EQ(j["diagnostics"][0]["rule"], "TOOL003");
  EXPECT_NE(j["diagnostics"][0]["message"].get<std::string>().find("kernel compile stage skipped"), std::string::npos);
  o.kernel_compile.enabled = false;
  r = test::runInProcess([&](const Io& io) { return runLint(o, {"kernels"}, io); });
  EXPECT_EQ(nlohmann::json::parse(r.out)["diagnostics"].size(), 0u) << r.out;
}

// The real thing: clang++-19 against a pto-isa checkout (PTO_ISA_ROOT, else ../pto-isa beside the source tree).
TEST(KernelCompileStage, CompilesKernelsAgainstTheRealHeaders) {
  fs::path headers;
  if (const char* env = std::getenv("PTO_ISA_ROOT"); env && *env) headers = env;
  else headers = fs::path(test::sourceDir()).parent_path() / "pto-isa";
  if (!isPtoIsaTree(headers)) GTEST_SKIP() << "no PTO-ISA checkout (set PTO_ISA_ROOT or clone pto-isa beside the repo)";
  if (!findExecutable("clang++-19", std::getenv("PATH"))) GTEST_SKIP() << "clang++-19 not on PATH (apt-get install clang-19)";
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  fs::path clang_fixtures = fs::path(test::fixturesDir()) / "kernel" / "clang";
  ws.write("k/missing_tmp.cpp", test::readFile(clang_fixtures / "missing_tmp.cpp"));
  ws.write("k/clean_vec_kernel.cpp", test::readFile(clang_fixtures / "clean_vec_kernel.cpp"));
  auto o = test::optionsIn(ws.path(), Format::Json);
  o.kernel_compile.pto_isa = headers;
  const char* path = std::getenv("PATH");
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"k"}, io); }, {{"PATH", path ? path : ""}});
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> found;
  for (const auto& d : j["diagnostics"]) found.push_back(d["rule"].get<std::string>() + "@" + d["file"].get<std::string>() + ":" + std::to_string(d["line"].get<int>()));
  EXPECT_EQ(found, (std::vector<std::string>{"ISA003@k/missing_tmp.cpp:8", "ISA009@k/missing_tmp.cpp:8"})) << r.out;
  EXPECT_EQ(r.exit_code, kExitFindings);
}

}  // namespace
}  // namespace portcheck::clangcheck

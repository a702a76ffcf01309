// Which C++ files the kernel rules fit: AUTO-mode PTO-ISA kernels get every rule, manual-mode PTO-ISA kernels only
// the ISA rules that hold in any mode, CCE kernel code none; both say so once (ISA014). Plain infrastructure C++
// gets no rule and no note. A port's kernel is an AUTO kernel whatever it looks like.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "clangcheck/kernel_compile.h"
#include "kernel/code_words.h"
#include "kernel/kernel_class.h"
#include "kernel/kernel_source.h"
#include "parse/syntax_tree.h"
#include "lint/linters.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

SourceFile classFixture(const std::string& name, const std::string& display_path) {
  auto read = readSourceFile(fs::path(test::fixturesDir()) / "kernel" / "classes" / name, display_path);
  EXPECT_TRUE(read.file) << name;
  return read.file ? *read.file : SourceFile{};
}

std::vector<Diagnostic> lint(const SourceFile& f) {
  static const Config config;
  LintSettings settings;
  settings.config = &config;
  return lintKernelFile(f, settings);
}

std::vector<std::string> rules(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds) out.push_back(d.rule);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TEST(KernelClass, ManualModeKernelGetsNoAutoFindingsAndSaysSoOnce) {
  auto ds = lint(classFixture("manual_kernel.cpp", "kernels/manual_kernel.cpp"));
  ASSERT_EQ(rules(ds), (std::vector<std::string>{"ISA014"})) << (ds.empty() ? "" : ds[0].message);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].severity, Severity::Info);
  EXPECT_EQ(ds[0].line, 1);
  EXPECT_NE(ds[0].message.find("manual-mode PTO-ISA kernel"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].message.find("TASSIGN (line 12)"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].message.find("set_flag (line 19)"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].message.find("AUTO001-AUTO013, AUTO016-AUTO024, ISA007, ISA008 not applied, and the compile check "
                               "builds it without __PTO_AUTO__"),
            std::string::npos)
      << ds[0].message;
}

TEST(KernelClass, PortKernelIsDeclaredAutoAndKeepsItsAutoFindings) {
  auto ds = lint(classFixture("manual_kernel.cpp", "projects/scale/pypto_src/kernels/manual_kernel.cpp"));
  EXPECT_EQ(rules(ds), (std::vector<std::string>{"AUTO001", "AUTO002", "ISA008"}));
  EXPECT_EQ(std::count_if(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.rule == "AUTO002"; }), 5);
}

TEST(KernelClass, CceGeneratedHeaderGetsNoAutoOrIsaFindingsAndSaysSo) {
  auto ds = lint(classFixture("cce_generated_header.hpp", "generated/cce_generated_header.hpp"));
  ASSERT_EQ(rules(ds), (std::vector<std::string>{"ISA014"}));
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].severity, Severity::Info);
  EXPECT_NE(ds[0].message.find("not a PTO-ISA kernel (CCE kernel code: no pto/ include, pto:: names, PTO tiles or "
                               "PTO instructions); AUTO and ISA rules not applied"),
            std::string::npos)
      << ds[0].message;
}

TEST(KernelClass, PlainInfrastructureHeaderGetsNothing) {
  auto ds = lint(classFixture("infrastructure_header.hpp", "include/infrastructure_header.hpp"));
  EXPECT_TRUE(ds.empty()) << ds.front().rule << " " << ds.front().message;
}

TEST(KernelClass, SuppressionsThatNameAutoRulesDeclareTheFileAuto) {
  SourceFile f = classFixture("manual_kernel.cpp", "kernels/manual_kernel.cpp");
  f.text = "// port-check: ignore-file[AUTO002]\n" + f.text;
  auto ds = lint(f);
  EXPECT_EQ(rules(ds), (std::vector<std::string>{"AUTO001", "ISA008"}));
}

TEST(KernelClass, CompileCheckBuildsManualKernelsWithoutPtoAutoAndSkipsCceCode) {
  using clangcheck::planKernel;
  auto manual = planKernel(classFixture("manual_kernel.cpp", "kernels/manual_kernel.cpp"));
  ASSERT_EQ(manual.variants.size(), 1u);
  EXPECT_EQ(manual.variants[0], (std::vector<std::string>{"__DAV_VEC__"}));
  auto port = planKernel(classFixture("manual_kernel.cpp", "projects/scale/pypto_src/kernels/manual_kernel.cpp"));
  ASSERT_EQ(port.variants.size(), 1u);
  EXPECT_EQ(port.variants[0], (std::vector<std::string>{"__PTO_AUTO__", "__DAV_VEC__"}));
  EXPECT_TRUE(planKernel(classFixture("cce_generated_header.hpp", "k.cpp")).variants.empty());
  EXPECT_TRUE(planKernel(classFixture("infrastructure_header.hpp", "k.cpp")).variants.empty());
}

// The class the parse gives a file, for comparing with the words-only one.
kernel::KernelClass parsedClass(const SourceFile& f) {
  const std::string parseable = kernel::parseableText(f.text);  // the tree reads its text
  SyntaxTree tree = SyntaxTree::parse(Language::Cpp, parseable);
  return kernel::classifyKernel(f, kernel::buildModel(f, tree));
}

SourceFile cpp(const std::string& text) {
  SourceFile f;
  f.path = "include/k.hpp";
  f.text = text;
  return f;
}

TEST(KernelClass, WordsAloneClassEveryFixtureAsTheParseDoesOrLeaveItToTheParse) {
  int decided = 0, files = 0;
  for (const auto& e : fs::recursive_directory_iterator(test::fixturesDir())) {
    std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h")) continue;
    auto read = readSourceFile(e.path(), "include/" + e.path().filename().string());
    if (!read.file) continue;
    ++files;
    std::optional<kernel::KernelClass> quick = kernel::classifyWithoutParse(*read.file);
    if (!quick) continue;
    ++decided;
    kernel::KernelClass parsed = parsedClass(*read.file);
    EXPECT_EQ(parsed.kind, kernel::KernelKind::NotPtoIsa) << e.path();
    EXPECT_EQ(quick->what, parsed.what) << e.path();
    EXPECT_EQ(quick->device_code, parsed.device_code) << e.path();
  }
  EXPECT_GT(files, 50);
  EXPECT_GE(decided, 2);  // at least the CCE header and the infrastructure header of classes/
}

TEST(KernelClass, WordsInCommentsAndStringsDoNotMakePtoIsa) {
  auto quick = kernel::classifyWithoutParse(cpp("// ported from pto::TADD, see <pto/pto-inst.hpp>\n"
                                                "/* Tile<Vec, float, 8, 8> */\n"
                                                "const char* kName = \"TLOAD\"; char q = 'T';\n"
                                                "__aicore__ void f(__gm__ float* x) { x[0] = 1'000; }\n"));
  ASSERT_TRUE(quick);
  EXPECT_EQ(quick->what, "CCE kernel code");
  EXPECT_EQ(quick->what, parsedClass(cpp("__aicore__ void f(__gm__ float* x) { x[0] = 1'000; }\n")).what);
}

TEST(KernelClass, PtoIsaWordsLeaveTheClassToTheParse) {
  for (const char* text : {"#include <pto/pto-inst.hpp>\n", "#include \"pto/common.hpp\"\n", "using namespace pto;\n",
                           "void f() { TADD(a, b, c); }\n", "using T = Tile<TileType::Vec, float, 8, 8>;\n",
                           "using L = TileLeft<half, 16, 16>;\n",
                           // what the scan cannot read as the compiler does
                           "const char* s = R\"(x)\";\n", "char c = 'x;\n",
                           // a function head only the parse finds
                           "AICORE void f();\n"})
    EXPECT_FALSE(kernel::classifyWithoutParse(cpp(text))) << text;
  // Another library's Tile namespace is no PTO tile.
  auto other = kernel::classifyWithoutParse(cpp("namespace Tile {\nstruct Copy {};\n}\nTile::Copy c;\n"));
  ASSERT_TRUE(other);
  EXPECT_EQ(other->what, "plain C++ (host or infrastructure code)");
}

TEST(KernelClass, WordsAloneTellAscendCCodeLikeTheParse) {
  for (const char* text : {"#include \"kernel_operator.h\"\n__aicore__ void f() {}\n",
                           "using namespace AscendC;\n__aicore__ void f() {}\n",
                           "__aicore__ void f(AscendC::LocalTensor<float> x) {}\n",
                           "// AscendC::LocalTensor is not used\n__aicore__ void f() {}\n",
                           "#define USE using namespace AscendC\n__aicore__ void f() {}\n"}) {
    auto quick = kernel::classifyWithoutParse(cpp(text));
    ASSERT_TRUE(quick) << text;
    EXPECT_EQ(quick->what, parsedClass(cpp(text)).what) << text;
  }
}

TEST(CodeWords, SkipsCommentsAndLiteralsAndMarksMacroBodies) {
  kernel::CodeWords w = kernel::codeWords(
      "#include <a/b.h>\n#define K(x) x##_\\\n  more\nint v = 0x1F'FF; // c \\\n still comment\n"
      "auto s = u8\"str\"; /* c */ y;\n");
  ASSERT_TRUE(w.certain);
  ASSERT_EQ(w.includes, (std::vector<std::string_view>{"a/b.h"}));
  std::vector<std::string> words, macro;
  for (const kernel::CodeWord& c : w.words) (c.in_define ? macro : words).emplace_back(c.text);
  EXPECT_EQ(macro, (std::vector<std::string>{"K", "x", "x", "_", "more"}));
  EXPECT_EQ(words, (std::vector<std::string>{"int", "v", "auto", "s", "u8", "y"}));
}

}  // namespace
}  // namespace portcheck

// Which C++ files the kernel rules fit: AUTO-mode PTO-ISA kernels get every rule, manual-mode PTO-ISA kernels only
// the ISA rules that hold in any mode, CCE kernel code none; both say so once (ISA014). Plain infrastructure C++
// gets no rule and no note. A port's kernel is an AUTO kernel whatever it looks like.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "clangcheck/kernel_compile.h"
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

}  // namespace
}  // namespace portcheck

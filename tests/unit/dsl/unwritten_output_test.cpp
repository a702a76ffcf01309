// DSL126 (an output buffer no kernel writes on any path) and DSL122 beside it: what the messages
// name, and the uses the buffer flow must take as possible writes so that it never reports a written
// output. The fixture test (dsl_rules_test.cpp) covers the lines; these cover the rest.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <string>
#include <vector>

#include "lint/python_unit_support.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using test::lintPythonText;

std::vector<Diagnostic> findingsOf(const std::vector<Diagnostic>& all, const std::string& rule) {
  std::vector<Diagnostic> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out), [&](const Diagnostic& d) { return d.rule == rule; });
  return out;
}

std::string badFixture() { return test::readFile(fs::path(test::fixturesDir()) / "dsl_rules" / "DSL126_bad.py"); }

TEST(UnwrittenOutput, TheMessageNamesTheKernelThatDoesNotWriteIt) {
  auto ds = findingsOf(lintPythonText("bad.py", badFixture()), "DSL126");
  auto it = std::find_if(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.line == 15; });
  ASSERT_NE(it, ds.end());
  EXPECT_EQ(it->severity, Severity::Error);
  EXPECT_NE(it->message.find("'c' is pl.Out of 'scale'"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("passed to 'scale_kernel' (line 16), which never writes it"), std::string::npos)
      << it->message;
}

TEST(UnwrittenOutput, ARebindingIsNamedWithTheCompilersOwnWarning) {
  auto ds = findingsOf(lintPythonText("bad.py", badFixture()), "DSL126");
  auto it = std::find_if(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.line == 21; });
  ASSERT_NE(it, ds.end());
  EXPECT_NE(it->message.find("line 26 rebinds the name 'c'"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("rebinds the name only — the caller's buffer is never written"), std::string::npos);
}

TEST(UnwrittenOutput, AReturnedCreatedTensorIsReportedWhereItIsMade) {
  auto ds = findingsOf(lintPythonText("bad.py", badFixture()), "DSL126");
  auto it = std::find_if(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.line == 32; });
  ASSERT_NE(it, ds.end());
  EXPECT_NE(it->message.find("'c' is made by pl.create_tensor and returned by 'scale_created'"), std::string::npos)
      << it->message;
}

// What the flow does not follow counts as a write: no finding, whatever the helper does.
TEST(UnwrittenOutput, APythonHelperOrAnUnknownOperationCountsAsAWrite) {
  const std::string head = R"(import pypto.language as pl


def fill(t):
    return t


@pl.jit
def entry(a: pl.Tensor[[64, 128], pl.FP32], c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
)";
  for (const std::string body : {"    c = fill(c)\n    return c\n", "    c = pl.tensor.not_an_op(c)\n    return c\n",
                                 "    c.fill_(0)\n    return c\n"}) {
    auto ds = lintPythonText("helper.py", head + body);
    EXPECT_TRUE(findingsOf(ds, "DSL126").empty()) << body;
    EXPECT_TRUE(findingsOf(ds, "DSL122").empty()) << body;
  }
}

// A loop's init_values hands the buffer to the carried name; the store into that name writes it.
TEST(UnwrittenOutput, AWriteThroughALoopCarriedNameCounts) {
  const std::string src = R"(import pypto.language as pl


@pl.jit
def entry(a: pl.Tensor[[64, 128], pl.FP32], c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    for i, (acc,) in pl.range(0, 64, 16, init_values=(c,)):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(a, [i, 0], [16, 128])
            acc = pl.store(t, [i, 0], acc)
        out = pl.yield_(acc)
    return out
)";
  EXPECT_TRUE(findingsOf(lintPythonText("carried.py", src), "DSL126").empty());
  std::string unwritten = src;
  unwritten.replace(unwritten.find("            acc = pl.store(t, [i, 0], acc)\n"), 43, "");
  EXPECT_EQ(findingsOf(lintPythonText("carried.py", unwritten), "DSL126").size(), 1u);
}

// Kernels that call each other in a cycle end the walk (the cycle counts as a write).
TEST(UnwrittenOutput, ACallCycleEnds) {
  const std::string src = R"(import pypto.language as pl


@pl.jit.inline
def ping(x: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    x = pong(x)
    return x


@pl.jit.inline
def pong(x: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    x = ping(x)
    return x


@pl.jit
def entry(c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    c = ping(c)
    return c
)";
  EXPECT_TRUE(findingsOf(lintPythonText("cycle.py", src), "DSL126").empty());
}

// DSL122 leaves a kernel the unit calls to DSL126; a kernel nothing calls is still its own.
TEST(UnwrittenOutput, Dsl122JudgesOnlyWhatNothingCalls) {
  std::string src = badFixture();
  auto ds = lintPythonText("bad.py", src);
  EXPECT_TRUE(findingsOf(ds, "DSL122").empty());
  src.replace(src.find("    c = scale_kernel(a, c)\n"), 27, "    pass\n");
  ds = lintPythonText("bad.py", src);
  auto k = findingsOf(ds, "DSL122");
  EXPECT_TRUE(std::any_of(k.begin(), k.end(), [](const Diagnostic& d) { return d.line == 8; }));
}

}  // namespace
}  // namespace portcheck

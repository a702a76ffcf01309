// A failed compile is never a silent pass, partial or garbled output never crashes the analysis,
// and no compiler-internal path leaks into a diagnostic.
#include <gtest/gtest.h>

#include <filesystem>

#include "compile_fixture_support.h"
#include "compiler/compile_record.h"
#include "core/text.h"

namespace portcheck {
namespace {

using test::fixtureRecord;

CompileRecord bareRecord(const test::TempDir& dir) {
  CompileRecord r;
  r.project = "p";
  r.source_root = dir.path();
  r.source_root_display = "projects/p/pypto_src";
  r.out_dir = dir.path() / "out";
  r.out_dir_display = "build/p";
  return r;
}

int count(const CompileAnalysis& a, const std::string& rule) {
  int n = 0;
  for (const Diagnostic& d : a.diagnostics) n += d.rule == rule;
  return n;
}

TEST(UnrecognisedFailure, UnknownOutputWithNonZeroExitQuotesTheLastLines) {
  test::TempDir dir;
  CompileRecord r = bareRecord(dir);
  r.exit_code = 1;
  r.log = "starting\nsomething odd happened\nsegment 7 exploded\n\n";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].rule, "COMP011");
  ASSERT_EQ(count(a, "COMP011"), 1);
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_NE(d.message.find("exited with code 1"), std::string::npos);
  ASSERT_EQ(d.notes.size(), 3u);
  EXPECT_EQ(d.notes.back().message, "segment 7 exploded");
  EXPECT_FALSE(a.succeeded);
}

TEST(UnrecognisedFailure, UnknownExceptionIsQuotedWithItsTypeAndUserFrame) {
  test::TempDir dir;
  dir.write("program.py", "x = 1\n");
  CompileRecord r = bareRecord(dir);
  r.exit_code = 1;
  r.path_map = {{"<case>/", "projects/p/pypto_src/"}};
  r.log = "Traceback (most recent call last):\n  File \"<case>/program.py\", line 1, in <module>\n    x = 1\n"
          "  File \"<pypto>/python/pypto/jit/decorator.py\", line 9, in compile\nKeyError: 'tile_shape'\n";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].rule, "COMP011");
  EXPECT_NE(a.diagnostics[0].message.find("KeyError: 'tile_shape'"), std::string::npos);
  EXPECT_EQ(a.diagnostics[0].file, "projects/p/pypto_src/program.py");
  EXPECT_EQ(a.diagnostics[0].line, 1);
}

TEST(UnrecognisedFailure, EmptyLogAndAdapterFailureAreReported) {
  test::TempDir dir;
  CompileRecord r = bareRecord(dir);
  r.exit_code = 1;
  EXPECT_EQ(count(analyzeCompile(r, Platform::A2A3), "COMP011"), 1);
  r.exit_code = 0;
  r.adapter.present = true;
  r.adapter.status = "compile_error";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  EXPECT_EQ(count(a, "COMP011"), 1);
  EXPECT_NE(a.diagnostics[0].message.find("compile_error"), std::string::npos);
}

TEST(UnrecognisedFailure, AHandledTracebackInASuccessfulCompileIsNoFailure) {
  CompileRecord r = fixtureRecord("01-vec-elementwise");
  r.log = "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nKeyError: 'cache'\n";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  EXPECT_TRUE(a.errors.empty());
  EXPECT_TRUE(a.succeeded);
}

TEST(UnrecognisedFailure, TimeoutsAndCrashesAreLeftToTheDriver) {
  test::TempDir dir;
  CompileRecord r = bareRecord(dir);
  r.exit_code = -1;
  r.timed_out = true;
  r.log = "half a line";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  EXPECT_TRUE(a.errors.empty());
  EXPECT_FALSE(a.succeeded);
  r.timed_out = false;
  r.signal = 11;
  a = analyzeCompile(r, Platform::A2A3);
  EXPECT_TRUE(a.errors.empty());
  EXPECT_FALSE(a.succeeded);
}

TEST(PartialOutput, MissingOrTruncatedFilesDoNotCrash) {
  // Every fixture case with its output folder gone: the log alone still gives the error.
  for (const std::string& c : test::realFixtureCases()) {
    SCOPED_TRACE(c);
    CompileRecord r = fixtureRecord(c);
    r.out_dir = r.out_dir / "gone";
    CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
    EXPECT_TRUE(a.sram.empty());
    if (r.exit_code != 0) EXPECT_FALSE(a.errors.empty());
  }
  // Truncated and garbled dumps, .pto and reports.
  test::TempDir dir;
  CompileRecord r = bareRecord(dir);
  dir.write("out/passes_dump/35_after_AllocateMemoryAddr.py",
            "@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIV\n    def k(\n"
            "        t: pl.Tile[[64, 128], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 3");
  dir.write("out/ptoas/k.pto", "func.func @k(\n  %a = pto.alloc_tile loc(\"");
  dir.write("out/report/codegen_errors.txt", "1 function(s) failed to compile:\n\n  Function | Error\n  [k]\n");
  dir.write("out/report/perf_hints.log", std::string("\xff\xfe[perf_hint PH001] X: y at", 26));
  dir.write("out/report/memory_after_AllocateMemoryAddr.txt", "=== Memory Usage Report ===\n--- f ---\n  Vec | x | y |\n");
  dir.write("out/passes_dump/34_after_MemoryReuse.log", "garbage\n:::\n");
  r.exit_code = 1;
  r.log = std::string("\x1b[31mValueError: Vec buffer usage (1 bytes) exceeds platform limit (0 bytes)\x1b[0m\n\xc3\x28\n");
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  EXPECT_FALSE(a.errors.empty());
  for (const Diagnostic& d : a.diagnostics) EXPECT_TRUE(isValidUtf8(d.message));
}

TEST(PartialOutput, HugeLinesDoNotExhaustTheParsers) {
  // std::regex recurses per character; every parser must stay shallow on megabyte lines.
  test::TempDir dir;
  CompileRecord r = bareRecord(dir);
  const std::string huge(1u << 20, 'x');
  dir.write("out/report/perf_hints.log", "[perf_hint PH001] Check: " + huge + " at /a.py:1:1\n");
  dir.write("out/passes_dump/34_after_MemoryReuse.log", "34_after_MemoryReuse.py: warning: " + huge + "\n");
  dir.write("k.py", "def k():\n    t = " + huge + "\n");
  r.exit_code = 1;
  r.log = "2026-11-22 03:39:47.131 W | [warning] [Check] (phase) " + huge + "\nFailed to compile function 'k': " + huge +
          "\nError: " + huge + "\n  --> /a.py:1:1\nTraceback (most recent call last):\n  File \"" + huge +
          "\", line 1, in x\nValueError: " + huge + "\n";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  EXPECT_FALSE(a.errors.empty());
}

TEST(PartialOutput, KernelsMissingButDumpPresentStillGivesSram) {
  CompileRecord r = fixtureRecord("19-ptoas-dtype-mismatch");
  test::TempDir out;
  std::filesystem::create_directories(out.path() / "passes_dump");
  std::filesystem::copy(r.out_dir / "passes_dump", out.path() / "passes_dump");
  r.out_dir = out.path();
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.sram.size(), 1u);
  EXPECT_EQ(*a.sram[0].actual, 49152);
  ASSERT_FALSE(a.errors.empty());
  EXPECT_EQ(a.errors[0].rule, "COMP007");  // from the log's Failed-to-compile line and the exception table
  EXPECT_EQ(a.errors[0].message, "'pto.tadd' op expects src0 and src1 to have the same element type");
  EXPECT_TRUE(a.errors[0].report.empty());
}

TEST(PathHygiene, NoCompilerInternalOrAbsolutePathLeaks) {
  for (const std::string& c : test::realFixtureCases()) {
    SCOPED_TRACE(c);
    CompileAnalysis a = analyzeCompile(fixtureRecord(c), Platform::A2A3);
    for (const Diagnostic& d : a.diagnostics) {
      EXPECT_EQ(d.message.find("<pypto>"), std::string::npos) << d.message;
      EXPECT_EQ(d.message.find("<case>"), std::string::npos) << d.message;
      EXPECT_EQ(d.message.find("<out>"), std::string::npos) << d.message;
      EXPECT_EQ(d.message.find(test::realFixturesDir().string()), std::string::npos) << d.message;
      EXPECT_FALSE(startsWith(d.file, "/")) << d.file;
      for (const DiagnosticNote& n : d.notes) {
        EXPECT_EQ(n.message.find(test::realFixturesDir().string()), std::string::npos) << n.message;
        EXPECT_FALSE(startsWith(n.file, "/")) << n.file;
      }
    }
  }
}

TEST(PathHygiene, AbsoluteStagingPathsAreMappedAndInternalOnesDropped) {
  test::TempDir dir;
  dir.write("k.py", "import pypto.language as pl\n");
  CompileRecord r = bareRecord(dir);
  r.exit_code = 1;
  r.path_map = {{"/srv/stage-123/", "projects/p/pypto_src/"}, {"/srv/u/pypto/", "<pypto>/"}};
  r.log = "Traceback (most recent call last):\n  File \"/srv/stage-123/k.py\", line 1, in <module>\n"
          "pypto.InternalError: Internal error: bad state [/srv/u/pypto/src/ir/x.cpp:10:2]\n"
          "Check failed: ok at /srv/u/pypto/src/ir/x.cpp:10\n";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].rule, "COMP010");
  EXPECT_EQ(a.errors[0].check_failed->source, "<pypto>/src/ir/x.cpp");
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_TRUE(d.file.empty()) << "a span into the compiler's own sources is not a user location: " << d.file;
  EXPECT_EQ(d.message.find("/srv/u"), std::string::npos);
}

}  // namespace
}  // namespace portcheck

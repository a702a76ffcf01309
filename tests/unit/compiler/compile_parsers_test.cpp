// One test group per output kind of the compiler, on the recorded real output (and on the
// documented formats where the recordings have no instance).
#include <gtest/gtest.h>

#include "compile_fixture_support.h"
#include "compiler/codegen_error_parser.h"
#include "compiler/compile_diagnostics.h"
#include "compiler/compile_record.h"
#include "compiler/compile_text.h"
#include "compiler/memory_error_parser.h"
#include "compiler/parser_error_parser.h"
#include "compiler/path_mapper.h"
#include "compiler/perf_hint_parser.h"
#include "compiler/pto_loc_index.h"
#include "compiler/ptoas_error_parser.h"
#include "compiler/python_exception_parser.h"
#include "compiler/verifier_report_parser.h"
#include "compiler/warning_parser.h"
#include "core/text.h"

namespace portcheck {
namespace {

using test::fixtureRecord;
using test::readFile;
using test::realFixturesDir;

std::string fixtureLog(const std::string& c) { return readFile(realFixturesDir() / c / "stdout-stderr.txt"); }

// ---- rendered parser errors ----

TEST(ParserErrors, RenderedBlockGivesMessageLocationAndHelp) {
  auto errors = parseRenderedParserErrors(logLines(fixtureLog("14-parse-undefined-name")));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "Undefined variable 'scale_tile'");
  EXPECT_EQ(errors[0].file, "<case>/program.py");
  EXPECT_EQ(errors[0].line, 15);
  EXPECT_EQ(errors[0].column, 9);
  EXPECT_EQ(errors[0].help, "Check if the variable is defined before using it or is available in the enclosing scope");
  EXPECT_EQ(errors[0].note, "");
}

TEST(ParserErrors, ColourCodesAreStripped) {
  // The same block as a TTY sees it: pypto colours "Error:", the arrow, the gutter and the carets.
  std::string coloured = replaceAll(fixtureLog("13-parse-shape-mismatch"), "Error:", "\x1b[1;31mError\x1b[0m:");
  coloured = replaceAll(coloured, "  --> ", "  \x1b[1;34m-->\x1b[0m ");
  coloured = replaceAll(coloured, "^^", "\x1b[1;31m^^\x1b[0m");
  auto errors = parseRenderedParserErrors(logLines(coloured));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message,
            "pl operation 'add': The operator tile.add requires compatible shapes, but got [128, 64] and [64, 64]");
  EXPECT_EQ(errors[0].line, 17);
  EXPECT_EQ(errors[0].help, "");
}

TEST(ParserErrors, NoteLinesAreKeptAndPtoasErrorLinesAreNotParserErrors) {
  std::vector<std::string> lines = {"Error: Variable 'x' is already defined", "  --> /src/k.py:12:9", "   |",
                                    "12 |         x = pl.add(x, x)", "   |         ^", "   |",
                                    "   = note: Each variable can only be assigned once per scope", "",
                                    "note: run with `PTO_BACKTRACE=1` environment variable to display a backtrace."};
  auto errors = parseRenderedParserErrors(lines);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].note, "Each variable can only be assigned once per scope");
  EXPECT_TRUE(parseRenderedParserErrors(logLines(fixtureLog("19-ptoas-dtype-mismatch"))).empty())
      << "`Error: Failed to parse MLIR.` is ptoas output, not a frontend error";
}

TEST(ParserErrors, AdapterFieldsStandInForAMissingLog) {
  CompileRecord r = fixtureRecord("17-parse-missing-annotation-program");
  r.log.clear();
  r.adapter.present = true;
  r.adapter.status = "compile_error";
  r.adapter.exception_type = "pypto.language.parser.diagnostics.exceptions.ParserTypeError";
  r.adapter.exception_message = "Parameter 'x' missing type annotation";
  r.adapter.extra = {{"parser_message", "Parameter 'x' missing type annotation"},
                     {"parser_file", "<case>/program.py"},
                     {"parser_line", "14"},
                     {"parser_column", "9"},
                     {"parser_hint", "Add a type annotation like: x: pl.Tensor[[64], pl.FP32]"}};
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].rule, "COMP001");
  EXPECT_EQ(a.errors[0].location.file, "projects/17-parse-missing-annotation-program/pypto_src/program.py");
  EXPECT_EQ(a.errors[0].location.line, 14);
  EXPECT_EQ(a.errors[0].location.column, 9);
  EXPECT_EQ(a.diagnostics[0].hint, "Add a type annotation like: x: pl.Tensor[[64], pl.FP32]");
  // The rendered block, when the adapter stored it, wins over the fields.
  r.adapter.extra["rendered"] = fixtureLog("17-parse-missing-annotation-program");
  r.adapter.extra["parser_line"] = "1";
  a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].location.line, 14);
}

// ---- OOM ValueError, DSA-RP, AutoTileMatmulL0 ----

TEST(MemoryErrors, InPassOverflowCarriesSpaceBytesAndReservedNote) {
  auto ex = parseLoggedException(logLines(fixtureLog("25-pipe-ring-oom-program")));
  ASSERT_TRUE(ex);
  EXPECT_EQ(ex->type, "ValueError");
  PathMapper paths(fixtureRecord("25-pipe-ring-oom-program"));
  auto e = parseMemoryError(ex->type, ex->message, paths);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->rule, "COMP002");
  EXPECT_EQ(e->space, "Vec");
  EXPECT_EQ(*e->used, 294912);
  EXPECT_EQ(*e->limit, 188416);
  EXPECT_TRUE(startsWith(e->note, "The first 262144 bytes of that space are reserved by system.reserve_buffer"));
  EXPECT_EQ(e->check_failed->expr, "limit == 0 || used <= limit");
  EXPECT_EQ(e->check_failed->line, 463);
}

TEST(MemoryErrors, OomIsAttributedToTheIncoreFunctionAndItsLargestTiles) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("09-vec-oom-live-tiles"), Platform::A2A3);
  ASSERT_FALSE(a.errors.empty());
  const CompilerError& e = a.errors[0];
  EXPECT_EQ(e.function, "keep_all_live_incore_0");
  EXPECT_TRUE(e.attributed);
  // The MemoryReuse warning's location: the `with pl.at(` line.
  EXPECT_EQ(e.location.file, "projects/09-vec-oom-live-tiles/pypto_src/program.py");
  EXPECT_EQ(e.location.line, 16);
  EXPECT_EQ(e.location.column, 5);
  ASSERT_GE(e.largest_tiles.size(), 3u);
  EXPECT_EQ(e.largest_tiles[0].name, "ta__ssa_v0");
  EXPECT_EQ(e.largest_tiles[0].bytes, 65536);
  EXPECT_EQ(e.largest_tiles[0].line, 17);
  EXPECT_EQ(e.largest_tiles[1].line, 18);
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_EQ(d.rule, "COMP002");
  ASSERT_TRUE(d.sram);
  EXPECT_EQ(d.sram->function, "keep_all_live_incore_0");
  EXPECT_EQ(d.sram->space, "Vec");
  EXPECT_EQ(d.sram->used, 262144);
  EXPECT_EQ(d.sram->limit, 188416);
  bool names_tile = false;
  for (const DiagnosticNote& n : d.notes) names_tile |= n.message.find("tile 'ta' (ta__ssa_v0) takes 65536 bytes") == 0;
  EXPECT_TRUE(names_tile);
}

TEST(MemoryErrors, OomWithoutWarningIsLocatedAtThePlAtScopeOfItsKernel) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("11-acc-oom"), Platform::A2A3);
  ASSERT_FALSE(a.errors.empty());
  EXPECT_EQ(a.errors[0].function, "wide_outer_incore_0");
  EXPECT_EQ(a.errors[0].location.line, 14);  // with pl.at(...)
  EXPECT_EQ(a.errors[0].location.column, 5);
  ASSERT_FALSE(a.errors[0].largest_tiles.empty());
  EXPECT_EQ(a.errors[0].largest_tiles[0].bytes, 262144);
  EXPECT_EQ(a.errors[0].largest_tiles[0].line, 19);  // c_l0c = pl.matmul(...)
  // Mat: two tiles, same attribution rule.
  CompileAnalysis mat = analyzeCompile(fixtureRecord("10-mat-oom"), Platform::A2A3);
  EXPECT_EQ(mat.errors[0].function, "l1_heavy_gemm_incore_0");
  EXPECT_EQ(mat.errors[0].largest_tiles[0].line, 15);
  EXPECT_EQ(mat.errors[0].largest_tiles[1].line, 16);
}

TEST(MemoryErrors, PipeRingOomNamesTheRingAmongTheLargestBuffers) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("25-pipe-ring-oom-program"), Platform::A2A3);
  ASSERT_FALSE(a.errors.empty());
  EXPECT_EQ(a.errors[0].function, "deep_ring_incore_0_aiv");
  ASSERT_FALSE(a.errors[0].largest_tiles.empty());
  EXPECT_EQ(a.errors[0].largest_tiles[0].bytes, 262144);
  EXPECT_NE(a.errors[0].largest_tiles[0].name.find("system.reserve_buffer"), std::string::npos);
}

TEST(MemoryErrors, DsaRpAndAutoTileMessages) {
  PathMapper paths24(fixtureRecord("24-dsa-rp-oom"));
  auto ex = parseLoggedException(logLines(fixtureLog("24-dsa-rp-oom")));
  auto dsa = parseMemoryError(ex->type, ex->message, paths24);
  ASSERT_TRUE(dsa);
  EXPECT_EQ(dsa->rule, "COMP004");
  EXPECT_EQ(dsa->function, "four_live_incore_0");
  EXPECT_EQ(dsa->location.line, 17);
  EXPECT_FALSE(dsa->used);

  PathMapper paths12(fixtureRecord("12-left-oom-autotile"));
  ex = parseLoggedException(logLines(fixtureLog("12-left-oom-autotile")));
  auto tile = parseMemoryError(ex->type, ex->message, paths12);
  ASSERT_TRUE(tile);
  EXPECT_EQ(tile->rule, "COMP005");
  EXPECT_EQ(tile->space, "Left");
  EXPECT_EQ(*tile->used, 131072);
  EXPECT_EQ(*tile->limit, 65536);
  EXPECT_EQ(tile->location.file, "projects/12-left-oom-autotile/pypto_src/program.py");
  EXPECT_FALSE(tile->check_failed);
}

// ---- verifier report ----

TEST(VerifierReports, OverflowEntryNamesFunctionAndDefLocation) {
  auto ex = parseLoggedException(logLines(fixtureLog("23-verifier-oom")));
  ASSERT_TRUE(ex);
  EXPECT_EQ(ex->type, "pypto.Error");
  auto errors = parseVerifierReport(ex->type, ex->message, PathMapper(fixtureRecord("23-verifier-oom")));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].function, "unscoped_big");
  EXPECT_EQ(errors[0].location.line, 11);
  EXPECT_EQ(errors[0].location.column, 1);
  EXPECT_EQ(*errors[0].used, 262144);
  CompileAnalysis a = analyzeCompile(fixtureRecord("23-verifier-oom"), Platform::A2A3);
  EXPECT_NE(a.diagnostics[0].hint.find("Orchestration function"), std::string::npos) << a.diagnostics[0].hint;
}

TEST(VerifierReports, EveryErrorEntryIsReportedAndWarningsSkipped) {
  std::string report =
      "Post-verification failed after pass 'AllocateMemoryAddr':\nIR Verification Report\n======================\n"
      "Total diagnostics: 3 (2 errors, 1 warnings)\n\n"
      "[1] ERROR - AllocatedMemoryAddr\n  Message: Function 'qk_pv_aic': Mat buffer usage (1064960 bytes) exceeds "
      "platform limit (524288 bytes). The first 1048576 bytes of that space are reserved by system.reserve_buffer, so "
      "tiles are allocated above them\n  Location: /src/k.py:40:5\n  Error Code: 1\n\n"
      "[2] WARNING - Something\n  Message: ignorable\n  Location: /src/k.py:1:1\n\n"
      "[3] ERROR - AllocatedMemoryAddr\n  Message: MemRef for variable 'x' in Vec has no address allocated\n"
      "  Location: /src/k.py:41:9\n  Error Code: 0\n\nStatus: FAILED (2 error(s) found)\n";
  CompileRecord r;
  r.source_root = "/src";
  r.source_root_display = "projects/k/pypto_src";
  auto errors = parseVerifierReport("pypto.Error", report, PathMapper(r));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].kind, "oom");
  EXPECT_EQ(errors[0].space, "Mat");
  EXPECT_TRUE(startsWith(errors[0].note, "The first 1048576 bytes"));
  EXPECT_EQ(errors[0].headline, "Post-verification failed after pass 'AllocateMemoryAddr':");
  EXPECT_EQ(errors[0].location.file, "projects/k/pypto_src/k.py");
  EXPECT_EQ(errors[1].kind, "verifier");
  EXPECT_EQ(errors[1].message, "MemRef for variable 'x' in Vec has no address allocated");
}

// ---- codegen tables, codegen_errors.txt, Failed-to-compile lines ----

TEST(CodegenErrors, TableCellsAreUnwrapped) {
  auto ex = parseLoggedException(logLines(fixtureLog("20-ptoas-missing-program")));
  ASSERT_TRUE(ex);
  EXPECT_EQ(ex->type, "PartialCodegenError");
  auto rows = parseCodegenTable(ex->message);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].name, "double_tile");
  EXPECT_EQ(rows[0].text,
            "PTOAS_ROOT is set to '<empty-ptoas-root>' but no executable ptoas was found there. Tried: "
            "'<empty-ptoas-root>/ptoas', '<empty-ptoas-root>/ptoas.sh', '<empty-ptoas-root>/bin/ptoas'.");
  EXPECT_EQ(codegenDetailsPath(ex->message), "<out>/report/codegen_errors.txt");
  // A path textwrap broke mid-word inside loc("...") is joined again.
  auto ex27 = parseLoggedException(logLines(fixtureLog("27-mixed-split-ptoas-rejects")));
  ASSERT_TRUE(ex27);
  auto split = parseCodegenTable(ex27->message);
  ASSERT_EQ(split.size(), 1u);
  EXPECT_NE(split[0].text.find("loc(\"<out>/ptoas/split_gemm_bias_incore_0.pto\":14:61)"), std::string::npos)
      << split[0].text;
}

TEST(CodegenErrors, LongWordsAndHyphensBrokenByTextwrapAreRejoined) {
  EXPECT_EQ(unwrapTableCell({std::string(60, 'a'), "bc rest"}), std::string(60, 'a') + "bc rest");
  EXPECT_EQ(unwrapTableCell({"a well-", "known op"}), "a well-known op");
  EXPECT_EQ(unwrapTableCell({"first part", "second part"}), "first part second part");
}

TEST(CodegenErrors, ErrorsFileBlocksAndFailureLinesGiveFullTextUnitAndMembers) {
  std::string file = readFile(realFixturesDir() / "19-ptoas-dtype-mismatch/out/report/codegen_errors.txt");
  auto blocks = parseCodegenErrorsFile(file);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].name, "mixed_precision_add_incore_0");
  EXPECT_TRUE(startsWith(blocks[0].text, "ptoas compilation failed: loc(\"<case>/program.py\":17:9): error:"));
  auto lines = parseFailureLines(logLines(fixtureLog("27-mixed-split-ptoas-rejects")));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].unit, "group");
  EXPECT_EQ(lines[0].members, (std::vector<std::string>{"split_gemm_bias_incore_0_aic", "split_gemm_bias_incore_0_aiv"}));
  auto orch = parseFailureLines(logLines(fixtureLog("18-misplaced-tile-op")));
  ASSERT_EQ(orch.size(), 1u);
  EXPECT_EQ(orch[0].unit, "orchestration");
  EXPECT_EQ(orch[0].text.find("C++ Traceback"), std::string::npos);
  EXPECT_NE(orch[0].text.find("Check failed: false"), std::string::npos);
}

TEST(CodegenErrors, SeveralUnitsInOneTableAreEachReported) {
  // _format_error_report with two units: the first from the table only, the second also logged.
  std::string table =
      "2 function(s) failed to compile:\n\n"
      "  Function   | Error\n"
      "  -----------+--------------------------------------------------------------\n"
      "  k_incore_0 | ptoas compilation failed: loc(\"/src/k.py\":13:9): error:\n"
      "             | 'pto.tadd' op expects src0 and src1 to have the same\n"
      "             | element type\n"
      "  -----------+--------------------------------------------------------------\n"
      "  k_incore_1 | tile.store tile valid_shape must be 2D [/src/k.py:23:5]\n"
      "  -----------+--------------------------------------------------------------\n\n"
      "  Full details: /out/report/codegen_errors.txt";
  auto rows = parseCodegenTable(table);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].text,
            "ptoas compilation failed: loc(\"/src/k.py\":13:9): error: 'pto.tadd' op expects src0 and src1 to have "
            "the same element type");
  std::vector<CodegenFailure> logged = {{"function", "k_incore_1", {}, "tile.store tile valid_shape must be 2D [/src/k.py:23:5]\nCheck failed: x at /p/a.cpp:1"}};
  auto merged = mergeCodegenFailures(logged, rows, {});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].name, "k_incore_0");
  EXPECT_EQ(merged[0].unit, "");
  EXPECT_EQ(merged[1].unit, "function");
  EXPECT_NE(merged[1].text.find("Check failed"), std::string::npos) << "the logged full text wins over the table cell";
  CompileRecord r;
  r.source_root = "/src";
  r.source_root_display = "projects/k/pypto_src";
  PathMapper paths(r);
  CompilerError first = classifyCodegenFailure(merged[0], "PartialCodegenError", paths);
  EXPECT_EQ(first.rule, "COMP007");
  EXPECT_EQ(first.location.file, "projects/k/pypto_src/k.py");
  CompilerError second = classifyCodegenFailure(merged[1], "PartialCodegenError", paths);
  EXPECT_EQ(second.rule, "COMP006");
  EXPECT_EQ(second.location.line, 23);
  EXPECT_EQ(second.check_failed->expr, "x");
}

TEST(CodegenErrors, MisplacedOpPointsAtTheFirstMisplacedTile) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("18-misplaced-tile-op"), Platform::A2A3);
  ASSERT_FALSE(a.errors.empty());
  EXPECT_EQ(a.errors[0].rule, "COMP009");
  EXPECT_EQ(a.errors[0].report, "build/compile/18-misplaced-tile-op/report/codegen_errors.txt");
  EXPECT_EQ(a.errors[0].location.line, 14);  // t = pl.load(...) outside pl.at
  EXPECT_EQ(a.sram_noncompute.size(), 1u);
}

// ---- ptoas ----

TEST(Ptoas, LocIntoTheUsersFileIsReportedThere) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("19-ptoas-dtype-mismatch"), Platform::A2A3);
  ASSERT_FALSE(a.errors.empty());
  EXPECT_EQ(a.errors[0].rule, "COMP007");
  EXPECT_EQ(a.errors[0].location.file, "projects/19-ptoas-dtype-mismatch/pypto_src/program.py");
  EXPECT_EQ(a.errors[0].location.line, 17);
}

TEST(Ptoas, LocIntoGeneratedPtoIsMappedBackThroughItsLocAnnotation) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("27-mixed-split-ptoas-rejects"), Platform::A2A3);
  ASSERT_FALSE(a.errors.empty());
  const CompilerError& e = a.errors[0];
  EXPECT_EQ(e.location.file, "build/compile/27-mixed-split-ptoas-rejects/ptoas/split_gemm_bias_incore_0.pto");
  EXPECT_EQ(e.location.line, 14);
  EXPECT_EQ(e.location.column, 61);
  // Line 14 holds no loc(); its continuation line 15 does: loc("<case>/program.py":17:5).
  EXPECT_EQ(e.user_location.file, "projects/27-mixed-split-ptoas-rejects/pypto_src/program.py");
  EXPECT_EQ(e.user_location.line, 17);
  EXPECT_EQ(e.user_location.column, 5);
  const Diagnostic& d = a.diagnostics[0];
  ASSERT_FALSE(d.notes.empty());
  EXPECT_EQ(d.notes[0].file, e.user_location.file);
  EXPECT_EQ(d.notes[0].line, 17);
}

TEST(Ptoas, DiagnosticLinesAndMissingBinaryForms) {
  auto diags = parsePtoasDiagnostics(
      "ptoas compilation failed: loc(\"/x/k.py\":13:9): error: 'pto.tadd' op expects same type\n"
      "loc(\"/x/k.py\":12:5): note: see current operation\nError: Failed to parse MLIR.");
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].severity, "error");
  EXPECT_EQ(diags[0].line, 13);
  EXPECT_EQ(diags[1].severity, "note");
  auto missing = parsePtoasMissing(
      "ptoas binary not found. Set PTOAS_ROOT to the extracted release directory, or add ptoas to your PATH.\n"
      "Download from: https://github.com/zhangstevenunity/PTOAS/releases");
  ASSERT_TRUE(missing);
  EXPECT_TRUE(missing->ptoas_root.empty());
  EXPECT_TRUE(startsWith(missing->message, "ptoas binary not found."));
  auto rooted = parsePtoasMissing(
      "PTOAS_ROOT is set to '/opt/p' but no executable ptoas was found there. Tried: '/opt/p/ptoas', "
      "'/opt/p/ptoas.sh', '/opt/p/bin/ptoas'.");
  ASSERT_TRUE(rooted);
  EXPECT_EQ(rooted->ptoas_root, "/opt/p");
  EXPECT_EQ(rooted->tried.size(), 3u);
}

TEST(Ptoas, PtoUserLocationFollowsContinuationLinesOnly) {
  std::string pto = "  %a = pto.x loc(\"/u.py\":3:1)\n  pto.y {a = 1}\n      (b) loc(\"/u.py\":4:2)\n  pto.z\n";
  EXPECT_EQ(ptoUserLocation(pto, 1)->line, 3);
  EXPECT_EQ(ptoUserLocation(pto, 2)->line, 4);
  EXPECT_FALSE(ptoUserLocation(pto, 4));
  EXPECT_FALSE(ptoUserLocation(pto, 99));
}

// ---- internal errors ----

TEST(InternalErrors, SayItIsACompilerBugAndDropTheCppTraceback) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("26-dsa-rp-internal-program"), Platform::A2A3);
  ASSERT_FALSE(a.errors.empty());
  EXPECT_EQ(a.errors[0].rule, "COMP010");
  EXPECT_EQ(a.errors[0].exception, "pypto.InternalError");
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_EQ(d.rule, "COMP010");
  EXPECT_TRUE(startsWith(d.message, "internal compiler error: DSA-RP constructed or produced invalid state"));
  EXPECT_EQ(d.message.find("C++ Traceback"), std::string::npos);
  EXPECT_EQ(d.message.find("libc-start"), std::string::npos);
  EXPECT_NE(d.hint.find("PyPTO bug"), std::string::npos);
  EXPECT_NE(d.hint.find("pypto revision"), std::string::npos);
  EXPECT_NE(d.hint.find("minimal program"), std::string::npos);
}

// ---- warnings, perf hints, pass logs ----

TEST(Warnings, LogLinesGiveCheckPhaseMessageAndLocation) {
  auto w = parseWarningLines(logLines(fixtureLog("10-mat-oom")), PathMapper(fixtureRecord("10-mat-oom")));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].check, "MemoryReuse");
  EXPECT_EQ(w[0].phase, "MemoryReuse");
  EXPECT_EQ(w[0].location.line, 14);
  EXPECT_TRUE(endsWith(w[0].message, "reduce tile size or stage count)."));
}

TEST(Warnings, PassLogLinesAreMappedToTheUsersLineThroughTheVariable) {
  CompileRecord r = fixtureRecord("01-vec-elementwise");
  test::TempDir out;
  // A copy of the case's output folder with a gcc-style pass log added (pass_manager.py format).
  std::filesystem::copy(r.out_dir, out.path(), std::filesystem::copy_options::recursive);
  out.write("passes_dump/35_after_AllocateMemoryAddr.log",
            "35_after_AllocateMemoryAddr.py:10:9: warning: Unused variable 'tz__ssa_v0' in function "
            "'fused_add_mul_incore_0' [UnusedVariable]\n 10 |         tz__ssa_v0: pl.Tile[...]\n    |         ^~~~\n"
            "35_after_AllocateMemoryAddr.py: warning: something general [OtherCheck]\n");
  r.out_dir = out.path();
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.warnings.size(), 2u);
  EXPECT_EQ(a.warnings[0].check, "UnusedVariable");
  EXPECT_EQ(a.warnings[0].phase, "AllocateMemoryAddr");
  EXPECT_EQ(a.warnings[0].location.file, "projects/01-vec-elementwise/pypto_src/program.py");
  EXPECT_EQ(a.warnings[0].location.line, 16);  // tz = pl.load(...)
  EXPECT_EQ(a.warnings[0].dump_location.line, 10);
  EXPECT_EQ(a.warnings[1].location.file, "build/compile/01-vec-elementwise/passes_dump/35_after_AllocateMemoryAddr.py");
  int comp012 = 0;
  for (const Diagnostic& d : a.diagnostics) comp012 += d.rule == "COMP012";
  EXPECT_EQ(comp012, 2);
}

// PERF001's hint fits the hint's family: rows for PH001, pipeline depth for MemoryReuse's PH-MR-001,
// the matmul for AutoTileMatmulL0's PH-AT-*.
TEST(PerfHints, TheHintFitsTheCompilersCode) {
  CompileRecord r = fixtureRecord("26-dsa-rp-internal-program");
  PathMapper paths(r);
  auto hints = parsePerfHints(logLines(readFile(r.out_dir / "report/perf_hints.log")), paths);
  ASSERT_EQ(hints.size(), 1u);
  Diagnostic at = perfHintDiagnostic(hints[0], paths);
  EXPECT_NE(at.hint.find("AutoTileMatmulL0"), std::string::npos) << at.hint;
  PerfHint mr = hints[0];
  mr.code = "PH-MR-001";
  mr.check = "MemoryReuse";
  EXPECT_NE(perfHintDiagnostic(mr, paths).hint.find("stage count"), std::string::npos);
  PerfHint rows = hints[0];
  rows.code = "PH001";
  EXPECT_NE(perfHintDiagnostic(rows, paths).hint.find("512 B per row"), std::string::npos);
}

TEST(PerfHints, FileLinesAndSummaryInBothNumberForms) {
  CompileRecord r = fixtureRecord("26-dsa-rp-internal-program");
  PathMapper paths(r);
  auto hints = parsePerfHints(logLines(readFile(r.out_dir / "report/perf_hints.log")), paths);
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0].code, "PH-AT-006");
  EXPECT_EQ(hints[0].check, "AutoTileMatmulL0");
  auto one = parsePerfHintSummary(logLines(fixtureLog("26-dsa-rp-internal-program")), paths);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->hints, 1);
  EXPECT_EQ(one->path, "build/compile/26-dsa-rp-internal-program/report/perf_hints.log");
  auto relative = parsePerfHintSummary(logLines(fixtureLog("22-perf-hint-default-outdir")), paths);
  ASSERT_TRUE(relative);
  EXPECT_EQ(relative->hints, 3);
  EXPECT_EQ(relative->sites, 3);
  EXPECT_EQ(relative->path, "build_output/_jit_narrow_rows_<timestamp>/report/perf_hints.log");
  CompileAnalysis a = analyzeCompile(fixtureRecord("03-matmul-program"), Platform::A2A3);
  ASSERT_EQ(a.diagnostics.size(), 2u);
  EXPECT_EQ(a.diagnostics[0].rule, "PERF001");
  EXPECT_TRUE(startsWith(a.diagnostics[0].message, "[PH001] TileInnermostDimGranularity: tile.load has innermost"));
}

TEST(PerfHints, SummaryWithoutItsFileIsStillReported) {
  CompileRecord r = fixtureRecord("22-perf-hint-default-outdir");
  r.out_dir = r.out_dir / "no-such-folder";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.diagnostics.size(), 1u);
  EXPECT_EQ(a.diagnostics[0].rule, "PERF001");
  EXPECT_NE(a.diagnostics[0].message.find("3 hint(s) across 3 site(s)"), std::string::npos);
}

// ---- the adapter's result file gives the same facts as the log ----

TEST(AdapterResult, ExceptionFromTheResultFileIsClassifiedLikeTheLoggedOne) {
  for (const std::string c : {"08-vec-oom-one-tile", "23-verifier-oom", "26-dsa-rp-internal-program", "19-ptoas-dtype-mismatch"}) {
    SCOPED_TRACE(c);
    CompileRecord logged = fixtureRecord(c);
    auto ex = parseLoggedException(logLines(logged.log));
    ASSERT_TRUE(ex);
    CompileRecord viaAdapter = logged;
    viaAdapter.adapter.present = true;
    viaAdapter.adapter.status = "compile_error";
    viaAdapter.adapter.exception_type = c == "19-ptoas-dtype-mismatch" ? "pypto.backend.pto_backend.PartialCodegenError" : ex->type;
    viaAdapter.adapter.exception_message = ex->message;
    // Only the lines before the traceback stay in the log (warnings, Failed-to-compile lines).
    std::size_t tb = logged.log.find("Traceback (most recent call last):");
    viaAdapter.log = logged.log.substr(0, tb);
    CompileAnalysis a = analyzeCompile(logged, Platform::A2A3);
    CompileAnalysis b = analyzeCompile(viaAdapter, Platform::A2A3);
    ASSERT_EQ(a.errors.size(), b.errors.size());
    EXPECT_EQ(a.errors[0].rule, b.errors[0].rule);
    EXPECT_EQ(a.errors[0].exception, b.errors[0].exception);
    EXPECT_EQ(a.errors[0].message, b.errors[0].message);
    EXPECT_EQ(a.errors[0].location.line, b.errors[0].location.line);
    EXPECT_EQ(a.errors[0].function, b.errors[0].function);
  }
}

}  // namespace
}  // namespace portcheck

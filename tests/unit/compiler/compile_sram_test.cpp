// SRAM figures from the AllocateMemoryAddr pass dump and from the legacy memory report, and the
// MEM1xx findings built on them.
#include <gtest/gtest.h>

#include <cmath>

#include "compile_fixture_support.h"
#include "compiler/compile_record.h"
#include "compiler/legacy_memory_report_parser.h"
#include "compiler/memory_dump_parser.h"
#include "compiler/sram_usage.h"
#include "core/text.h"

namespace portcheck {
namespace {

using test::fixtureRecord;
using test::readFile;
using test::realFixturesDir;

const SramRow* row(const std::vector<SramRow>& rows, const std::string& fn, const std::string& space) {
  for (const SramRow& r : rows)
    if (r.function == fn && r.space == space) return &r;
  return nullptr;
}

TEST(SramDump, PipeRingIsCountedAndTilesWithoutMemRefAreSkipped) {
  PassDump dump = parsePassDump(readFile(realFixturesDir() / "04-mixed-split-program/out/passes_dump/35_after_AllocateMemoryAddr.py"));
  const DumpFunction* aiv = nullptr;
  for (const DumpFunction& f : dump.functions)
    if (f.name == "matmul_bias_incore_0_aiv") aiv = &f;
  ASSERT_NE(aiv, nullptr);
  EXPECT_EQ(aiv->type, "AIV");
  ASSERT_EQ(aiv->reserves.size(), 1u);
  EXPECT_EQ(aiv->reserves[0].size, 131072);
  EXPECT_EQ(aiv->reserves[0].base, 0);
  EXPECT_EQ(aiv->tiles.size(), 2u) << "acc__tile_Vec (tpop_from_aic) has no MemRef; DDR tensors are not tiles";
  auto usage = spaceUsage(*aiv, nullptr);
  ASSERT_EQ(usage.size(), 1u);
  EXPECT_EQ(usage[0].hwm, 163840);
  EXPECT_EQ(usage[0].reserved, 131072);
  EXPECT_EQ(usage[0].largest[0].bytes, 131072);  // the ring leads the list
}

TEST(SramDump, DumpIsFoundByPassNameNotNumber) {
  auto p = findPassDump(realFixturesDir() / "28-dsa-rp-ok/out", "AllocateMemoryAddr");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->filename(), "34_after_AllocateMemoryAddr.py");
  EXPECT_EQ(passNameOf(*p), "AllocateMemoryAddr");
  CompileAnalysis a = analyzeCompile(fixtureRecord("28-dsa-rp-ok"), Platform::A2A3);
  ASSERT_EQ(a.sram.size(), 1u);
  EXPECT_EQ(*a.sram[0].actual, 98304);  // DSA shares addresses across bases: max(offset+size), not a sum
  EXPECT_EQ(a.memory_dump, "build/compile/28-dsa-rp-ok/passes_dump/34_after_AllocateMemoryAddr.py");
}

TEST(SramDump, PtoasPlannerLeavesNoFigures) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("29-ptoas-planner"), Platform::A2A3);
  EXPECT_TRUE(a.sram.empty());
  EXPECT_TRUE(a.diagnostics.empty());
  EXPECT_TRUE(a.succeeded);
}

TEST(SramDump, LargestTilesCarryTheUsersLines) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("01-vec-elementwise"), Platform::A2A3);
  const SramRow* r = row(a.sram, "fused_add_mul_incore_0", "Vec");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->core, "AIV");
  EXPECT_EQ(r->capacity, 188416);
  ASSERT_EQ(r->largest.size(), 2u);  // two buffers after reuse
  EXPECT_EQ(r->largest[0].name, "tx__ssa_v0");
  EXPECT_EQ(r->largest[0].file, "projects/01-vec-elementwise/pypto_src/program.py");
  EXPECT_EQ(r->largest[0].line, 15);  // from the .pto loc() of %tx__ssa_v0
  EXPECT_EQ(r->largest[1].line, 16);
}

TEST(SramDump, CapacitiesFollowThePlatform) {
  CompileAnalysis a2 = analyzeCompile(fixtureRecord("06-vec-high-usage-program"), Platform::A2A3);
  CompileAnalysis a5 = analyzeCompile(fixtureRecord("06-vec-high-usage-program"), Platform::A5);
  EXPECT_EQ(a2.sram[0].capacity, 188416);
  EXPECT_EQ(a5.sram[0].capacity, 245760);
}

TEST(SramFindings, LowUsageIsAnInfoAtTheKernelWithItsLargestTiles) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("07-vec-low-usage"), Platform::A2A3);
  ASSERT_EQ(a.diagnostics.size(), 1u);
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_EQ(d.rule, "MEM102");
  EXPECT_EQ(d.severity, Severity::Info);
  EXPECT_EQ(d.line, 14);  // with pl.at(...)
  ASSERT_TRUE(d.sram);
  EXPECT_EQ(d.sram->used, 16384);
  EXPECT_EQ(d.sram->limit, 188416);
  EXPECT_FALSE(d.notes.empty());
  EXPECT_TRUE(a.succeeded);
}

TEST(SramFindings, LowUsageThresholdComesFromConfig) {
  CompileAnalysisOptions ten = compileAnalysisOptions({{"mem.low_usage_percent", "5"}});
  EXPECT_DOUBLE_EQ(ten.low_usage_percent, 5);
  EXPECT_TRUE(analyzeCompile(fixtureRecord("07-vec-low-usage"), Platform::A2A3, ten).diagnostics.empty());
  CompileAnalysisOptions fifty = compileAnalysisOptions({{"mem.low_usage_percent", "50"}});
  CompileAnalysis a = analyzeCompile(fixtureRecord("01-vec-elementwise"), Platform::A2A3, fifty);
  ASSERT_EQ(a.diagnostics.size(), 1u);
  EXPECT_EQ(a.diagnostics[0].rule, "MEM102");
  // Nonsense values keep the default.
  EXPECT_DOUBLE_EQ(compileAnalysisOptions({{"mem.low_usage_percent", "abc"}}).low_usage_percent, 30);
  EXPECT_DOUBLE_EQ(compileAnalysisOptions({{"mem.low_usage_percent", "0"}}).low_usage_percent, 30);
  EXPECT_DOUBLE_EQ(compileAnalysisOptions({{"mem.low_usage_percent", "150"}}).low_usage_percent, 30);
}

TEST(SramFindings, DominantSpaceDecides) {
  // gemm_tile: Mat 9.4%, but Right 50%: the kernel is not under-used.
  CompileAnalysis a = analyzeCompile(fixtureRecord("03-matmul-program"), Platform::A2A3);
  for (const Diagnostic& d : a.diagnostics) EXPECT_NE(d.rule, "MEM102");
}

TEST(SramFindings, OverCapacityLayoutIsAnError) {
  // The a2a3 dump read against... a tile above a2a3's Vec in an AllocateMemoryAddr dump (compiled for a
  // larger target, or with the check off): MEM101 with the figures and the largest tile.
  test::TempDir dir;
  dir.write("k.py", "import pypto.language as pl\n\n@pl.jit\ndef big(x, y):\n    with pl.at(level=pl.Level.CORE_GROUP):\n"
                    "        t = pl.load(x, [0, 0], [200, 256])\n    return y\n");
  dir.write("out/passes_dump/35_after_AllocateMemoryAddr.py",
            "@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV)\n"
            "    def big_incore_0(x__ssa_v0: pl.Tensor[[200, 256], pl.FP32, pl.MemRef(\"mem_ddr_0\", pl.const(0, pl.INT64), 204800)]):\n"
            "        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 204800)\n"
            "        t__ssa_v0: pl.Tile[[200, 256], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 204800), pl.Mem.Vec] = "
            "pl.tile.load(x__ssa_v0, [0, 0], [200, 256], [200, 256], target_memory=pl.Mem.Vec)\n");
  CompileRecord r;
  r.source_root = dir.path();
  r.source_root_display = "projects/k/pypto_src";
  r.out_dir = dir.path() / "out";
  r.out_dir_display = "build/k";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.diagnostics.size(), 1u);
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_EQ(d.rule, "MEM101");
  EXPECT_EQ(d.file, "projects/k/pypto_src/k.py");
  EXPECT_EQ(d.line, 5);
  EXPECT_EQ(d.sram->used, 204800);
  EXPECT_EQ(d.sram->limit, 188416);
  ASSERT_FALSE(d.notes.empty());
  EXPECT_EQ(d.notes[0].line, 6);
  // The same layout fits a5's 240 KiB.
  EXPECT_TRUE(analyzeCompile(r, Platform::A5).diagnostics.empty());
}

TEST(SramFindings, OverflowAlreadyReportedByTheCompilerIsNotRepeated) {
  CompileAnalysis a = analyzeCompile(fixtureRecord("23-verifier-oom"), Platform::A2A3);
  for (const Diagnostic& d : a.diagnostics) EXPECT_NE(d.rule, "MEM101");
  EXPECT_EQ(a.sram_noncompute.size(), 1u);  // the Orchestration tiles are listed apart
  EXPECT_TRUE(a.sram.empty());
}

// ---- legacy report/memory_after_<Pass>.txt ----

TEST(LegacyMemoryReport, EveryRowMatchesTheRecordedFacts) {
  const auto dir = realFixturesDir() / "legacy-memory-report";
  auto expected = nlohmann::json::parse(readFile(dir / "expected.json"));
  auto report = parseLegacyMemoryReport(readFile(dir / "out/report/memory_after_AllocateMemoryAddr.txt"));
  ASSERT_TRUE(report);
  EXPECT_EQ(report->pass, expected["header"]["pass"].get<std::string>());
  EXPECT_EQ(report->backend, expected["header"]["backend"].get<std::string>());
  EXPECT_EQ(report->functions_declared, expected["header"]["functions_declared"].get<int>());
  EXPECT_EQ(report->function_kind, expected["header"]["function_kind"].get<std::string>());
  std::size_t i = 0;
  for (const auto& fn : expected["functions"])
    for (const auto& s : fn["spaces"]) {
      ASSERT_LT(i, report->rows.size());
      const LegacyMemoryRow& r = report->rows[i++];
      SCOPED_TRACE(r.function + " " + r.space);
      EXPECT_EQ(r.function, fn["function"].get<std::string>());
      EXPECT_EQ(r.space, s["space"].get<std::string>());
      EXPECT_DOUBLE_EQ(r.used_kb, s["used_kb"].get<double>());
      EXPECT_DOUBLE_EQ(r.limit_kb, s["limit_kb"].get<double>());
      EXPECT_DOUBLE_EQ(r.usage_percent, s["usage_pct"].get<double>());
      EXPECT_EQ(r.memrefs, s["memrefs"].get<int>());
      EXPECT_EQ(r.used_bytes, s["used_bytes_approx"].get<std::int64_t>());
      EXPECT_EQ(r.used_min, s["used_bytes_range"][0].get<std::int64_t>());
      EXPECT_EQ(r.used_max, s["used_bytes_range"][1].get<std::int64_t>());
      EXPECT_EQ(r.limit_bytes, s["limit_bytes"].get<std::int64_t>());
    }
  EXPECT_EQ(i, report->rows.size());
}

TEST(LegacyMemoryReport, IsTheSramSourceWhenNoDumpExists) {
  CompileRecord r;
  r.project = "indexer";
  r.source_root = realFixturesDir() / "legacy-memory-report";
  r.source_root_display = "projects/indexer/pypto_src";
  r.out_dir = realFixturesDir() / "legacy-memory-report/out";
  r.out_dir_display = "build/indexer";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_TRUE(a.legacy_memory_report);
  ASSERT_EQ(a.sram.size(), 8u);
  const SramRow* softmax = row(a.sram, "incore_softmax", "Vec");
  ASSERT_NE(softmax, nullptr);
  EXPECT_EQ(*softmax->actual, 148275);
  EXPECT_EQ(softmax->capacity, 196608);  // the limit that build enforced
  EXPECT_EQ(softmax->tiles, 4);
  EXPECT_EQ(a.memory_dump, "build/indexer/report/memory_after_AllocateMemoryAddr.txt");
}

TEST(LegacyMemoryReport, ByteAndMegabyteCellsAndOtherText) {
  auto r = parseLegacyMemoryReport(
      "=== Memory Usage Report ===\nPass: MemoryReuse\nBackend: N/A\nFunctions: 1 compute functions\n\n--- f ---\n\n"
      "  Space  |  Used       |  Limit      |  Usage   |  MemRefs\n  -------+-------------+-------------+----------+---------\n"
      "  Bias   |   512 B     |    1.0 KB   |   50.0%  |  1\n  Mat    |    1.0 MB   |  512.0 KB   |  200.0%  |  2\n"
      "  Buffers (Vec)  -- base allocations making up Used\n    Name  |  Size  |  Address range  |  Live range\n"
      "    mem_vec_0 |   32.0 KB   |  [0, 32768)  |  [3, 9]\n");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->rows.size(), 2u);
  EXPECT_EQ(r->rows[0].used_bytes, 512);
  EXPECT_EQ(r->rows[0].used_min, 512);
  EXPECT_EQ(r->rows[0].limit_bytes, 1024);
  EXPECT_EQ(r->rows[1].used_bytes, 1048576);
  EXPECT_EQ(r->rows[1].used_min, 1048576 - 52428);  // 0.05 MB below, rounded up
  EXPECT_FALSE(parseLegacyMemoryReport("not a report"));
}

}  // namespace
}  // namespace portcheck

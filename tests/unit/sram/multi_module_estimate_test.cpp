// The estimator on a model folder the way pypto-lib writes one (tests/fixtures/corpus/multi_module):
// a dataclass config read through `M.field` and a @property, an inline block whose tensor-level code
// is spliced into a `for ... in pl.spmd(..., name_hint=)` kernel and inlined twice (`scale_rows`,
// `scale_rows_0`), a K loop whose matmul_acc accumulates in place under pl.pipeline(stage=2). Every
// (function, space) figure is compared with the real compiler's AllocateMemoryAddr dump of the program.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "compiler/memory_dump_parser.h"
#include "compiler/sram_usage.h"
#include "core/source_file.h"
#include "dsl/dsl_model.h"
#include "sram/sram_estimator.h"
#include "test_support.h"

namespace portcheck::multi_module_estimate_test {
namespace {

namespace fs = std::filesystem;

fs::path fixture() { return fs::path(test::fixturesDir()) / "corpus/multi_module"; }

dsl::ProgramModel model() {
  std::vector<SourceFile> files;
  for (const char* f : {"model.py", "blocks.py", "config.py"}) {
    SourceFile s;
    s.path = std::string("multi_module/") + f;
    s.text = test::readFile(fixture() / f);
    files.push_back(std::move(s));
  }
  return dsl::buildProgramModel(files);
}

// A one-file program of tests/fixtures/corpus/<name>/ (program.py, compiled/ with the real compiler's
// AllocateMemoryAddr dump).
fs::path corpusFixture(const std::string& name) { return fs::path(test::fixturesDir()) / "corpus" / name; }

dsl::ProgramModel singleFileModel(const fs::path& dir) {
  std::vector<SourceFile> files(1);
  files[0].path = "program.py";
  files[0].text = test::readFile(dir / "program.py");
  return dsl::buildProgramModel(files);
}

// "kernel/space" -> bytes: the estimator's high-water marks, and the compiler's from the dump.
using Figures = std::map<std::string, std::int64_t>;

Figures estimatedFigures(const dsl::ProgramModel& pm, Platform platform = Platform::A2A3) {
  Figures estimate;
  for (const sram::KernelEstimate& k : sram::estimateProgram(pm, platform))
    for (const sram::SpaceEstimate& s : k.spaces) estimate[k.kernel + "/" + s.space] = s.hwm;
  return estimate;
}

// `compiled/` holds the a2a3 dump, `compiled/a5/` the a5 one where a fixture has both.
Figures compilerFigures(const fs::path& dir, Platform platform = Platform::A2A3) {
  fs::path compiled = dir / (platform == Platform::A5 ? "compiled/a5" : "compiled");
  PassDump dump = parsePassDump(test::readFile(compiled / "35_after_AllocateMemoryAddr.py"), "AllocateMemoryAddr");
  Figures actual;
  for (const DumpFunction& fn : dump.functions)
    if (fn.isCompute())
      for (const SpaceUsage& u : spaceUsage(fn, nullptr)) actual[u.function + "/" + u.space] = u.hwm;
  return actual;
}

TEST(MultiModuleEstimate, DataclassConfigFieldsDefaultsAndPropertiesAreConstants) {
  dsl::ProgramModel pm = model();
  const dsl::FileModel& blocks = pm.files[1];
  ASSERT_NE(blocks.constant("D"), nullptr);
  EXPECT_EQ(blocks.constant("D")->value.i, 256);  // M.hidden, a keyword of the constructor
  EXPECT_EQ(blocks.constant("ROWS")->value.i, 64);  // M.rows, the class's default
  const dsl::FileModel& main = pm.files[0];
  ASSERT_NE(main.constant("HALF"), nullptr);
  EXPECT_EQ(main.constant("HALF")->value.i, 128);  // M.half, a @property over the fields
}

TEST(MultiModuleEstimate, InlineHelpersCalledFromKernelsAreIncoreCode) {
  dsl::ProgramModel pm = model();
  const dsl::FileModel& blocks = pm.files[1];
  const dsl::Function& tile = blocks.functions[static_cast<std::size_t>(blocks.functionIndex("_scale_tile"))];
  ASSERT_FALSE(tile.regions.empty());
  EXPECT_TRUE(tile.regions[0].kernel_name.empty());  // spliced into its caller's kernel, no kernel itself
  bool on_chip = false;
  for (const dsl::Value& v : tile.values) on_chip = on_chip || (v.name == "u" && v.on_chip);
  EXPECT_TRUE(on_chip);
}

TEST(MultiModuleEstimate, EveryPairMatchesTheRealCompilersAllocation) {
  std::vector<sram::KernelEstimate> ks = sram::estimateProgram(model(), Platform::A2A3);
  std::map<std::string, std::int64_t> estimate;
  for (const sram::KernelEstimate& k : ks)
    for (const sram::SpaceEstimate& s : k.spaces) estimate[k.kernel + "/" + s.space] = s.hwm;
  PassDump dump = parsePassDump(test::readFile(fixture() / "compiled/35_after_AllocateMemoryAddr.py"),
                                "AllocateMemoryAddr");
  int pairs = 0;
  for (const DumpFunction& fn : dump.functions) {
    if (!fn.isCompute()) continue;
    for (const SpaceUsage& u : spaceUsage(fn, nullptr)) {
      ++pairs;
      std::string key = u.function + "/" + u.space;
      ASSERT_TRUE(estimate.count(key)) << key << " has no estimate";
      EXPECT_EQ(estimate[key], u.hwm) << key;
    }
  }
  EXPECT_EQ(pairs, 6);
  // The second instance is the first's figure again, marked so findings come from the first only.
  int repeated = 0;
  for (const sram::KernelEstimate& k : ks) repeated += k.repeated;
  EXPECT_EQ(repeated, 1);
  EXPECT_EQ(sram::firstInstances(ks).size(), ks.size() - 1);
}

// Bare `pl.Tensor` parameters typed as the program specialises them: the entry's from the torch
// tensors of the file's __main__ (a bfloat16 cast, a float32 default), the kernels' from the tensors
// the entry passes them. Compared with the real compiler's dump of the program.
TEST(MultiModuleEstimate, BareParametersTakeTheTypesTheirCallsGiveThem) {
  fs::path dir = corpusFixture("bare_params");
  dsl::ProgramModel pm = singleFileModel(dir);
  const dsl::Function& entry = pm.files[0].functions[static_cast<std::size_t>(pm.files[0].functionIndex("entry"))];
  ASSERT_EQ(entry.params.size(), 3u);
  EXPECT_EQ(entry.params[0].type.dtype, dsl::DType::BF16);
  EXPECT_EQ(entry.params[1].type.dtype, dsl::DType::FP32);
  EXPECT_EQ(entry.params[2].type.dtype, dsl::DType::FP32);  // torch.empty's default
  Figures estimate = estimatedFigures(pm);
  Figures actual = compilerFigures(dir);
  for (const auto& [key, hwm] : actual) EXPECT_EQ(estimate[key], hwm) << key;
  EXPECT_EQ(actual.size(), 2u);
}

// Tensor-level row reductions get a scratch tile from the compiler (its last dimension raised to 128),
// which the program never declares; compared with the real compiler's dump of the program.
TEST(MultiModuleEstimate, TensorLevelReductionsCountTheScratchTheCompilerGivesThem) {
  fs::path dir = corpusFixture("reduction_scratch");
  Figures estimate = estimatedFigures(singleFileModel(dir));
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"narrow_softmax/Vec", 28800},
                              {"pipelined_norm/Vec", 65920},
                              {"tile_max/Vec", 65664},
                              {"wide_sum/Vec", 65664}}));
  // pipelined_norm: a scratch per pipeline stage and the rsqrt's; each stage's [32, 1] row sum keeps
  // out of its own stage's input buffer (compiled/README.md).
  EXPECT_EQ(estimate, actual);
}

// An inline function called inside pl.unroll(3) is spliced three times (the loop is unrolled before
// the scopes are outlined): three instances under the compiler's names.
TEST(MultiModuleEstimate, AnInlineCalledInsideUnrollHasAnInstancePerCopy) {
  fs::path dir = corpusFixture("unrolled_inline");
  Figures estimate = estimatedFigures(singleFileModel(dir));
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"scale_rows/Vec", 8192}, {"scale_rows_0/Vec", 8192}, {"scale_rows_1/Vec", 8192}}));
  EXPECT_EQ(estimate, actual);
}

// An entry's own scopes inside pl.unroll(3) are a kernel per copy, named copy after copy in statement
// order: the hinted ones ctx, ctx_0, ctx_1 and the unnamed ones layer_incore_<k>, k counting every
// InCore scope in unrolled order (qwen3_14b prefill_fwd_a8w8's attention scopes: 504 unnamed pairs).
TEST(MultiModuleEstimate, AnEntrysScopesInsideUnrollAreNamedPerCopy) {
  fs::path dir = corpusFixture("unrolled_entry_scopes");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"ctx/Vec", 8192},
                             {"ctx_0/Vec", 8192},
                             {"ctx_1/Vec", 8192},
                             {"layer_incore_1/Vec", 4096},
                             {"layer_incore_3/Vec", 4096},
                             {"layer_incore_5/Vec", 4096},
                             {"layer_incore_6/Vec", 4096}}));
  dsl::ProgramModel pm = singleFileModel(dir);
  EXPECT_EQ(estimatedFigures(pm), actual);
  EXPECT_EQ(estimatedFigures(pm, Platform::A5), compilerFigures(dir, Platform::A5));
}

// Scopes are outlined after the inline functions are spliced into their caller, in the caller's
// statement order: the second scope named "proj" is proj_0 whichever inline function wrote it, the
// caller's own scope with that hint comes next (proj_2), spmd hints are numbered alike (rows, rows_0);
// each splice carries its own function's estimate (deepseek_v4's proj_a_mm of the swa, csa and hca
// attention blocks inlined into one decode layer).
TEST(MultiModuleEstimate, ScopesOfSplicedInlineFunctionsAreNamedInTheCallersOrder) {
  fs::path dir = corpusFixture("inlined_names");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"proj/Vec", 8192},
                             {"proj_0/Vec", 16384},
                             {"proj_1/Vec", 8192},
                             {"proj_2/Vec", 12288},
                             {"rows/Vec", 4096},
                             {"rows_0/Vec", 16384}}));
  dsl::ProgramModel pm = singleFileModel(dir);
  EXPECT_EQ(estimatedFigures(pm), actual);
  EXPECT_EQ(estimatedFigures(pm, Platform::A5), compilerFigures(dir, Platform::A5));
  const dsl::FileModel& file = pm.files[0];
  const dsl::Function& narrow = file.functions[static_cast<std::size_t>(file.functionIndex("narrow_proj"))];
  ASSERT_EQ(narrow.regions.size(), 1u);
  EXPECT_EQ(narrow.regions[0].kernel_name, "proj");
  EXPECT_EQ(narrow.regions[0].instance_names, (std::vector<std::string>{"proj", "proj_1"}));
  // The first splice is the one findings are about; the others are marked repeated.
  int first = 0, repeated = 0;
  for (const sram::KernelEstimate& k : sram::estimateProgram(pm, Platform::A2A3))
    if (k.function_index == file.functionIndex("narrow_proj")) (k.repeated ? repeated : first) += 1;
  EXPECT_EQ(first, 1);
  EXPECT_EQ(repeated, 1);
}

// An inline module linted alone (no caller in the unit): its hinted scopes are named after their hints.
TEST(MultiModuleEstimate, InlineScopesWithNoCallerAreNamedAfterTheirHints) {
  SourceFile f;
  f.path = "blocks.py";
  f.text = R"(import pypto.language as pl


@pl.jit.inline
def narrow(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Tensor[[64, 128], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="proj"):
        y[0:16, :] = pl.mul(x[0:16, :], 2.0)
    with pl.at(level=pl.Level.CORE_GROUP):
        y[16:32, :] = pl.mul(x[16:32, :], 2.0)
    return y
)";
  dsl::ProgramModel pm = dsl::buildProgramModel(std::vector<SourceFile>{f});
  const dsl::Function& fn = pm.files[0].functions[static_cast<std::size_t>(pm.files[0].functionIndex("narrow"))];
  ASSERT_EQ(fn.regions.size(), 2u);
  EXPECT_EQ(fn.regions[0].kernel_name, "proj");
  EXPECT_EQ(fn.regions[1].kernel_name, "");  // named after the caller, which is not known
  EXPECT_TRUE(fn.regions[0].instance_names.empty());
  Figures estimate = estimatedFigures(pm);
  EXPECT_EQ(estimate, (Figures{{"proj/Vec", 8192}}));
}

// A pl.pipeline(stage=4) inside a pl.pipeline(stage=2): the inner loop's clones are cloned again in
// each outer clone (2 x 4 row tiles), and the row carried through the inner loop only is one per outer
// clone (2): ten buffers, where one level of clones alone gives five (deepseek_v4's hc_post at 0.5x).
TEST(MultiModuleEstimate, APipelineInsideAPipelineIsClonedInEveryOuterClone) {
  fs::path dir = corpusFixture("nested_pipeline");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"mix_mix/Vec", 40960}}));
  EXPECT_EQ(estimatedFigures(singleFileModel(dir)), actual);
  EXPECT_EQ(estimatedFigures(singleFileModel(dir), Platform::A5), compilerFigures(dir, Platform::A5));
}

// AutoTileMatmulL0's M/N tiling: a fresh matmul whose output overflows L0c (a2a3's 128 KB) holds one
// [128, 256] sub-tile at a time, the K loop's operands sized for it (pypto's 02_auto_tile_matmul:
// Acc 2x and an MEM001 on a kernel the compiler fits); on a5 the same output fits and is whole.
TEST(MultiModuleEstimate, AMatmulOutputOverflowingL0cIsComputedSubTileBySubTile) {
  fs::path dir = corpusFixture("mn_tiled_matmul");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual["split_k/Acc"], 131072);
  EXPECT_EQ(actual["split_k/Left"], 32768);
  EXPECT_EQ(actual["split_k/Right"], 65536);
  EXPECT_EQ(actual["full_k/Left"], 32768);
  EXPECT_EQ(actual["full_k/Right"], 32768);
  EXPECT_EQ(estimatedFigures(singleFileModel(dir)), actual);
  Figures a5 = compilerFigures(dir, Platform::A5);
  EXPECT_EQ(a5["split_k/Acc"], 262144);
  EXPECT_EQ(estimatedFigures(singleFileModel(dir), Platform::A5), a5);
}

// AutoTileMatmulL0 folds a round-half-to-even cast of a matmul result read only by matmuls into the
// cube's FIXPIPE writeback (a Mat scratch): the kernel is not split and no Vec tile exists (pypto's
// mat_split_k / mat_full_k: a 655 KB Vec estimate and three MEM001 warnings on an AIV half the
// compiler never makes). The default rounding mode stays a vector cast.
TEST(MultiModuleEstimate, ARintCastBetweenMatmulsStaysOnTheCube) {
  fs::path dir = corpusFixture("folded_cast");
  for (Platform platform : {Platform::A2A3, Platform::A5}) {
    Figures actual = compilerFigures(dir, platform);
    Figures estimate = estimatedFigures(singleFileModel(dir), platform);
    EXPECT_EQ(actual["folded/Mat"], 49152);
    for (const char* space : {"/Mat", "/Left", "/Right", "/Acc"})
      EXPECT_EQ(estimate[std::string("folded") + space], actual[std::string("folded") + space]) << space;
    EXPECT_EQ(estimate.count("folded/Vec"), 0u);
    EXPECT_EQ(estimate.count("folded_aiv/Vec"), 0u);
    EXPECT_EQ(actual.count("vector_cast_aiv/Vec"), 1u);
    EXPECT_EQ(estimate.count("vector_cast_aiv/Vec"), 1u);
  }
}

// A name bound in one scope and bound again in a later scope's pl.pipeline loop is not carried there:
// each stage of each loop holds its own operand tiles (Mat), as the compiler allocates them.
TEST(MultiModuleEstimate, PipelineStagesOfEachScopeHoldTheirOwnTilesWhateverTheNames) {
  fs::path dir = corpusFixture("pipelined_scopes");
  Figures estimate = estimatedFigures(singleFileModel(dir));
  Figures actual = compilerFigures(dir);
  for (const char* kernel : {"q_proj", "k_proj"}) {
    std::string k(kernel);
    EXPECT_EQ(actual[k + "/Mat"], 327680) << k;
    EXPECT_EQ(actual[k + "/Right"], 65536) << k;
    for (const char* space : {"/Mat", "/Acc", "/Left", "/Right"})
      EXPECT_EQ(estimate[k + space], actual[k + space]) << k << space;
  }
}

// A tensor computed in one scope is read by the next through GM: a view of it, or tensor-level compute
// on it, is a load in the reading kernel, however on chip it was in the first.
TEST(MultiModuleEstimate, ATensorAnotherScopeComputedIsLoadedWhereItIsRead) {
  fs::path dir = corpusFixture("cross_scope");
  Figures estimate = estimatedFigures(singleFileModel(dir));
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"consume_view/Vec", 16384}, {"consume_whole/Vec", 16384}, {"produce/Vec", 32768}}));
  EXPECT_EQ(estimate, actual);
}

// pl.pipeline(stage=2) keeps its stages' tiles apart only as deep as the space affords (MemoryReuse's
// capacity gate): two stages of double-buffered L0B operands do not fit L0B, so there the stages share;
// in L0A they fit and stay apart. An INT32 accumulator of 16 rows takes 32 rows of L0C on a2a3.
TEST(MultiModuleEstimate, PipelineStagesStayApartOnlyAsFarAsTheSpaceAffords) {
  fs::path dir = corpusFixture("pipelined_matmul");
  Figures estimate = estimatedFigures(singleFileModel(dir));
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual["two_proj/Right"], 65536);
  EXPECT_EQ(actual["two_proj/Left"], 32768);
  EXPECT_EQ(actual["int8_proj/Acc"], 32768);
  for (const auto& [key, hwm] : actual) EXPECT_EQ(estimate[key], hwm) << key;
}

// A tensor-level pl.gather is lowered into tiles the program never declares, differently per platform:
// a per-row loop with a row and an index scratch on a2a3, a full-tile gather from a contiguous copy
// through a flat index on a5. Compared with the real compiler's dumps on both.
TEST(MultiModuleEstimate, ATensorLevelGatherCountsTheTilesItsLoweringCreates) {
  fs::path dir = corpusFixture("gather_rows");
  for (Platform platform : {Platform::A2A3, Platform::A5}) {
    Figures estimate = estimatedFigures(singleFileModel(dir), platform);
    Figures actual = compilerFigures(dir, platform);
    EXPECT_EQ(actual["dup_gather/Vec"], platform == Platform::A5 ? 4608 : 3072);
    EXPECT_EQ(estimate, actual) << toString(platform);
  }
}

// A pl.pipeline loop whose body crosses cores both ways is skewed on the cube (two clones of each tile,
// accumulators included) and a plain loop on the vector cores; the AIC reserves the ring it receives
// the vector results into in Mat. Compared with the real compiler's dumps on both platforms.
TEST(MultiModuleEstimate, APipelineCrossingCoresBothWaysIsSkewedOnTheCubeOnly) {
  fs::path dir = corpusFixture("crosscore_pipeline");
  for (Platform platform : {Platform::A2A3, Platform::A5}) {
    Figures estimate = estimatedFigures(singleFileModel(dir), platform);
    Figures actual = compilerFigures(dir, platform);
    EXPECT_EQ(actual["qk_pv_aiv/Vec"], 41088);
    EXPECT_EQ(actual["qk_pv_aic/Mat"], 49152);
    EXPECT_EQ(actual["qk_pv_aic/Acc"], 32768);
    EXPECT_EQ(estimate, actual) << toString(platform);
  }
}

// A pl.pipeline loop whose cross-core traffic sits under an `if` is no cross-core loop to
// SkewCrossCorePipeline (it reads only the body's own statements): LowerPipelineLoops clones it on both
// cores, and an accumulator sliced in the body is cloned per stage. An inline view operand of a matmul
// is loaded with the other operand; an spmd kernel named like its entry takes the entry's prefix.
TEST(MultiModuleEstimate, APipelineWhoseCrossingIsGuardedIsClonedOnBothCores) {
  fs::path dir = corpusFixture("guarded_crosscore_pipeline");
  for (Platform platform : {Platform::A2A3, Platform::A5}) {
    Figures estimate = estimatedFigures(singleFileModel(dir), platform);
    Figures actual = compilerFigures(dir, platform);
    EXPECT_EQ(actual["qk_pv_aic/Acc"], 49152);
    EXPECT_EQ(actual["qk_pv_aic/Left"], 24576);
    EXPECT_EQ(actual["qk_pv_aiv/Vec"], 90496);
    EXPECT_EQ(actual["proj_proj/Mat"], 49152);
    EXPECT_EQ(estimate, actual) << toString(platform);
  }
}

// pl.sort32 doubles the row into (value, index) pairs; pl.mrgsort keeps one list's shape and merges
// several through a compiler tmp of the merged shape; no sort writes over its input.
TEST(MultiModuleEstimate, SortsPairTheirRowAndMergeThroughACompilerTmp) {
  fs::path dir = corpusFixture("sorted_runs");
  for (Platform platform : {Platform::A2A3, Platform::A5}) {
    Figures actual = compilerFigures(dir, platform);
    EXPECT_EQ(actual, (Figures{{"row_topk/Vec", 5120}, {"merge_two/Vec", 6656}}));
    EXPECT_EQ(estimatedFigures(singleFileModel(dir), platform), actual) << toString(platform);
  }
}

// A tensor the kernel receives and a vector op reads is loaded once at the kernel's entry and held
// for the whole loop reading it (qwen3's rope cos/sin rows viewed outside the scope).
TEST(MultiModuleEstimate, AKernelInputReadByVectorCodeIsLoadedOnceAtEntry) {
  fs::path dir = corpusFixture("entry_loads");
  for (Platform platform : {Platform::A2A3, Platform::A5}) {
    Figures actual = compilerFigures(dir, platform);
    EXPECT_EQ(actual, (Figures{{"rotate/Vec", 1536}}));
    EXPECT_EQ(estimatedFigures(singleFileModel(dir), platform), actual) << toString(platform);
  }
}

// A loop-carried rebinding is written into its iter_arg's buffer; a tensor-level pl.cmp is a packed
// mask, a fill of ones, a fill of zeros and a tmp selected into its result.
TEST(MultiModuleEstimate, ACarriedRebindingSharesItsIterArgAndACompareSelectsFills) {
  fs::path dir = corpusFixture("carried_and_compared");
  for (Platform platform : {Platform::A2A3, Platform::A5}) {
    Figures actual = compilerFigures(dir, platform);
    EXPECT_EQ(actual, (Figures{{"merge_groups/Vec", 16576}, {"lane_max_lane_max/Vec", 130336}}));
    EXPECT_EQ(estimatedFigures(singleFileModel(dir), platform), actual) << toString(platform);
  }
}

// A cube result read by vector code through slices crosses slice by slice: the pipe's slots are sized
// by the slice, not by the accumulator.
TEST(MultiModuleEstimate, ACubeResultReadInSlicesCrossesSliceBySlice) {
  fs::path dir = corpusFixture("sliced_crossing");
  for (Platform platform : {Platform::A2A3, Platform::A5}) {
    Figures actual = compilerFigures(dir, platform);
    EXPECT_EQ(actual["parts_aiv/Vec"], 32768);
    EXPECT_EQ(actual["parts_aic/Acc"], 32768);
    EXPECT_EQ(estimatedFigures(singleFileModel(dir), platform), actual) << toString(platform);
  }
}

// A pl.pipeline loop holds no more clones than it has iterations; in each clone an op that cannot
// write in place keeps out of its input's buffer, as in the first.
TEST(MultiModuleEstimate, APipelineShorterThanItsStagesHasACloneAnIteration) {
  fs::path dir = corpusFixture("short_pipeline");
  Figures estimate = estimatedFigures(singleFileModel(dir));
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"one_of_two/Vec", 16384}, {"two_of_four/Vec", 65792}}));
  EXPECT_EQ(estimate, actual);
}

// A view stored as it is (`dst[...] = row`, or `dst[...] = src[...]` directly) is loaded into a tile,
// though no call reads it.
TEST(MultiModuleEstimate, AViewStoredAsItIsIsLoaded) {
  fs::path dir = corpusFixture("stored_view");
  Figures estimate = estimatedFigures(singleFileModel(dir));
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"copy_blocks/Vec", 4096}, {"gather_row_copy/Vec", 512}}));
  EXPECT_EQ(estimate, actual);
}

// pl.create_tensor inside an incore scope is a tile (Vec by default, written in place by slice
// assignments); a created accumulator a loop overwrites with matmul results is in Acc, and its kernel
// is not split into _aic / _aiv for it. Compared with the real compiler's dumps on both platforms.
TEST(MultiModuleEstimate, TensorsCreatedInAScopeAreTilesInTheSpaceTheirLoopWrites) {
  fs::path dir = corpusFixture("created_tiles");
  dsl::ProgramModel pm = singleFileModel(dir);
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"pool/Vec", 2560},
                             {"gemm_tile/Acc", 16384},
                             {"gemm_tile/Mat", 16384},
                             {"gemm_tile/Left", 8192},
                             {"gemm_tile/Right", 8192}}));
  EXPECT_EQ(estimatedFigures(pm), actual);
  EXPECT_EQ(estimatedFigures(pm, Platform::A5), compilerFigures(dir, Platform::A5));
}

// `for fn, cols in ((sqrt_wide, 256), (exp_narrow, 128)): fn(torch.randn(ROWS, cols), ...)` in the
// file's __main__ specialises each entry with its own iteration's sizes.
TEST(MultiModuleEstimate, EntriesCalledInAMainLoopOverATupleTakeThatIterationsShapes) {
  fs::path dir = corpusFixture("tuple_loop_entries");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"sqrt_wide_sqrt_wide/Vec", 65536}, {"exp_narrow_exp_narrow/Vec", 32768}}));
  EXPECT_EQ(estimatedFigures(singleFileModel(dir)), actual);
}

// `cases = [(name, entry, (tensors...)), ...]` walked by `for name, fn, args in cases: prog =
// fn.lower(*args)` in the file's __main__ (pypto's examples/intermediate/05_assemble.py), and a
// `torch.tensor([...], dtype=...)` literal among the tensors (06_dyn_valid_shape.py): each entry takes
// its case's tensors.
TEST(MultiModuleEstimate, EntriesLoweredFromAListOfCasesTakeTheirCasesTensors) {
  fs::path dir = corpusFixture("case_list_entries");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"scale_rows_scale_rows/Vec", 16384}, {"shift_by_cfg_shift_by_cfg/Vec", 4096}}));
  dsl::ProgramModel pm = singleFileModel(dir);
  EXPECT_EQ(estimatedFigures(pm), actual);
  EXPECT_EQ(estimatedFigures(pm, Platform::A5), compilerFigures(dir, Platform::A5));
}

// A configuration chosen by name at import time (deepseek_v4_pro's config.ACTIVE): a function reading
// the environment and sys.argv picks the preset of a dict comprehension of dataclasses.replace copies.
TEST(MultiModuleEstimate, AConfigurationChosenAtImportTimeSizesTheKernels) {
  fs::path dir = corpusFixture("import_time_config");
  ::unsetenv("IMPORT_TIME_CONFIG_VARIANT");
  std::vector<SourceFile> files;
  for (const char* f : {"program.py", "config.py"}) {
    SourceFile s;
    s.path = std::string("import_time_config/") + f;
    s.text = test::readFile(dir / f);
    files.push_back(std::move(s));
  }
  dsl::ProgramModel pm = dsl::buildProgramModel(files);
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"scale/Vec", 131072}, {"halves/Vec", 32768}}));
  EXPECT_EQ(estimatedFigures(pm), actual);
  EXPECT_EQ(estimatedFigures(pm, Platform::A5), compilerFigures(dir, Platform::A5));
}

// pl.create_l1 is a Mat tile that pl.gather_row fills from a GM pool (no Vec staging of the pool),
// the cube operand of a mixed scope's matmuls (deepseek_v4_pro's qk_pv).
TEST(MultiModuleEstimate, AnL1OperandGatheredRowByRowIsAMatTile) {
  fs::path dir = corpusFixture("gathered_l1_operand");
  dsl::ProgramModel pm = singleFileModel(dir);
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"qk_pv_aic/Mat", 40960},
                             {"qk_pv_aic/Left", 8192},
                             {"qk_pv_aic/Right", 16384},
                             {"qk_pv_aic/Acc", 16384},
                             {"qk_pv_aiv/Vec", 41344}}));
  EXPECT_EQ(estimatedFigures(pm), actual);
  EXPECT_EQ(estimatedFigures(pm, Platform::A5), compilerFigures(dir, Platform::A5));
}

// Entries the __main__ calls through a module dict (`_MODES[args.mode](...)` with the argparse
// default, `for name, kernel in _VARIANTS.items()`) take those calls' shapes; others are not compiled.
TEST(MultiModuleEstimate, EntriesCalledThroughAModuleDictTakeThoseCallsShapes) {
  fs::path dir = corpusFixture("dict_dispatch_main");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"double/Vec", 32768}, {"square/Vec", 16384}}));
  EXPECT_EQ(estimatedFigures(singleFileModel(dir)), actual);
}

// Kernels chosen by plain Python at import (deepseek_v4's `hc_pre = _bind_hc_pre()`): a function called
// at module level defines the inline kernel in one branch of an `if` on an environment default, and a
// module-level `if` defines a helper; only the branches Python takes define anything.
TEST(MultiModuleEstimate, KernelsBoundAtImportAreTheBranchPythonTakes) {
  fs::path dir = corpusFixture("bound_at_import");
  ::unsetenv("BOUND_AT_IMPORT_IMPL");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"wide_rows/Vec", 65536}, {"finish_wide/Vec", 16384}}));
  EXPECT_EQ(estimatedFigures(singleFileModel(dir)), actual);
  EXPECT_EQ(estimatedFigures(singleFileModel(dir), Platform::A5), compilerFigures(dir, Platform::A5));
  // The other branches, when the environment chooses them.
  ::setenv("BOUND_AT_IMPORT_IMPL", "narrow", 1);
  Figures narrow = estimatedFigures(singleFileModel(dir));
  ::unsetenv("BOUND_AT_IMPORT_IMPL");
  EXPECT_EQ(narrow.count("wide_rows/Vec"), 0u);
  EXPECT_EQ(narrow.count("narrow_rows/Vec"), 1u);
  EXPECT_EQ(narrow.count("finish_narrow/Vec"), 1u);
}

// pl.prefetch warms GM weights into L2 (deepseek_v4's `prefetch_attn_w`): no on-chip tile for them, so
// no 160 MB estimate and no MEM001 on a scope the compiler fits in 8 KB.
TEST(MultiModuleEstimate, PrefetchedTensorsTakeNoTile) {
  fs::path dir = corpusFixture("prefetch_scope");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"warm_and_scale/Vec", 8192}}));
  EXPECT_EQ(estimatedFigures(singleFileModel(dir)), actual);
  EXPECT_EQ(estimatedFigures(singleFileModel(dir), Platform::A5), compilerFigures(dir, Platform::A5));
}

// A scope in the branch a compile-time `if` does not take is folded away by the parser: no kernel
// (pypto-lib's `if INDEXER_SCORE_CAP == 256: with pl.at(...)` with the cap at 2048).
TEST(MultiModuleEstimate, ScopesInABranchAConstantConditionSkipsAreNoKernels) {
  SourceFile f;
  f.path = "folded.py";
  f.text = R"(import pypto.language as pl
CAP = 2048

@pl.jit
def f(x: pl.Tensor[[16, CAP], pl.FP32], y: pl.Out[pl.Tensor[[16, CAP], pl.FP32]]):
    if CAP == 256:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="whole"):
            y[0:16, :] = x[0:16, :]
    else:
        for i in pl.spmd(16, name_hint="rows"):
            y[i : i + 1, :] = x[i : i + 1, :]
    if not CAP < 1024:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="kept"):
            y[0:1, :] = pl.exp(x[0:1, :])
    if CAP > 4096:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="twin"):
            y[0:2, :] = x[0:2, :]
    else:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="twin"):
            y[0:4, :] = x[0:4, :]
    return y
)";
  std::vector<SourceFile> files{f};
  Figures estimate = estimatedFigures(dsl::buildProgramModel(files));
  // the folded scope takes no name either: the live `twin` is not pushed to `twin_0`
  EXPECT_EQ(estimate, (Figures{{"rows/Vec", 8192}, {"kept/Vec", 8192}, {"twin/Vec", 32768}}));
}

// A @pl.program class built by a function for its caller's sizes (pypto's examples/models/05 to 09):
// the builder's parameters take main()'s arguments (main's own locals evaluated), its locals follow,
// and a kernel factory the builder calls with its locals makes a kernel of those sizes.
TEST(MultiModuleEstimate, ProgramsBuiltByAFunctionTakeTheSizesTheirCallerPasses) {
  fs::path dir = corpusFixture("built_program");
  Figures actual = compilerFigures(dir);
  EXPECT_EQ(actual, (Figures{{"exp_rows/Vec", 32768}, {"scale_rows/Vec", 32768}}));
  EXPECT_EQ(estimatedFigures(singleFileModel(dir)), actual);
}

}  // namespace
}  // namespace portcheck::multi_module_estimate_test

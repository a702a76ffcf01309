// The MEM estimate rules, the FUSE advice and the PERF estimator rules, data-driven: every tests/fixtures/sram_rules/<ID>_bad.py /
// <ID>_good.py goes through the estimator stage of lint and its MEM / FUSE / PERF findings must equal the
// `# expect: ID ...` annotations exactly (rule and line). Good files carry no annotation and must stay
// silent. Also: the numbers in the messages, the SRAM figures, the configurable thresholds.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

#include "lint/python_unit_support.h"
#include "lint/sram_lint.h"
#include "rules/catalogue.h"
#include "sram/buffer_packer.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

struct Linted {
  std::vector<Diagnostic> diagnostics;
  std::vector<SramRow> rows;
};

Linted estimateText(const std::string& path, const std::string& text, const Config& config = Config{}) {
  Linted out;
  out.diagnostics = test::estimatePythonText(path, text, out.rows, Platform::A2A3, config);
  return out;
}

std::vector<std::pair<std::string, int>> expectations(const std::string& text) {
  std::vector<std::pair<std::string, int>> out;
  static const std::regex kItem(R"(((?:MEM|FUSE|PERF)\d{3}))");
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    auto at = line.find("# expect:");
    if (at == std::string::npos) continue;
    std::string rest = line.substr(at + 9);
    for (std::sregex_iterator it(rest.begin(), rest.end(), kItem), end; it != end; ++it) out.push_back({(*it)[1], n});
  }
  return out;
}

fs::path fixtures() { return fs::path(test::fixturesDir()) / "sram_rules"; }

TEST(SramRules, EveryFixtureReportsExactlyItsAnnotatedFindings) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fixtures()))
    if (e.path().extension() == ".py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 10u);
  for (const fs::path& p : files) {
    std::string text = test::readFile(p);
    auto want = expectations(text);
    auto got = estimateText(p.filename().string(), text).diagnostics;
    bool bad = p.stem().string().ends_with("_bad");
    if (bad) EXPECT_FALSE(want.empty()) << p.filename();
    else EXPECT_TRUE(want.empty()) << p.filename();
    std::string shown;
    for (const Diagnostic& d : got) shown += "  " + d.rule + " " + std::to_string(d.line) + " " + d.message + "\n";
    std::vector<bool> used(got.size(), false);
    for (const auto& [rule, line] : want) {
      bool found = false;
      for (std::size_t i = 0; i < got.size() && !found; ++i)
        if (!used[i] && got[i].rule == rule && got[i].line == line) found = used[i] = true;
      EXPECT_TRUE(found) << p.filename() << ": expected " << rule << " at line " << line << "; got:\n" << shown;
    }
    for (std::size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(used[i]) << p.filename() << ": unexpected " << got[i].rule << " at line " << got[i].line << ": "
                           << got[i].message;
  }
}

TEST(SramRules, EveryEstimatorRuleHasABadAndAGoodFixture) {
  for (const RuleInfo& r : Catalogue::builtin().rules()) {
    bool mine = r.family == "FUSE" || (r.family == "MEM" && r.id < "MEM100") || (r.family == "PERF" && r.source == Stage::Estimator);
    if (!mine) continue;
    EXPECT_TRUE(fs::exists(fixtures() / (r.id + "_bad.py"))) << r.id;
    EXPECT_TRUE(fs::exists(fixtures() / (r.id + "_good.py"))) << r.id;
  }
}

TEST(SramRules, OverCapacityNamesTheNumbersAndTheLargestTiles) {
  auto got = estimateText("k.py", test::readFile(fixtures() / "MEM001_bad.py"));
  auto it = std::find_if(got.diagnostics.begin(), got.diagnostics.end(), [](const Diagnostic& d) { return d.rule == "MEM001"; });
  ASSERT_NE(it, got.diagnostics.end());
  EXPECT_NE(it->message.find("'big_exp_incore_0'"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("262144 bytes, over the 188416-byte capacity"), std::string::npos) << it->message;
  ASSERT_TRUE(it->sram);
  EXPECT_EQ(it->sram->function, "big_exp_incore_0");
  EXPECT_EQ(it->sram->space, "Vec");
  EXPECT_EQ(it->sram->used, 262144);
  EXPECT_EQ(it->sram->limit, 188416);
  ASSERT_FALSE(it->notes.empty());
  EXPECT_NE(it->notes[0].message.find("262144 bytes"), std::string::npos);
  EXPECT_EQ(it->severity, Severity::Error);
  EXPECT_EQ(it->source, Stage::Estimator);
}

TEST(SramRules, OverCapacityOnlyByTheModelledReuseIsAWarningThatSaysSo) {
  // Two 128 KiB tiles live at once: each fits Vec on its own, together they do not. Whether they do is
  // the estimator's model of MemoryReuse, not a certainty: a warning.
  auto got = estimateText("k.py", R"(import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def pair(a: pl.Tensor[[128, 256], pl.FP32], b: pl.Tensor[[128, 256], pl.FP32],
         out: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
    ta = pl.load(a, [0, 0], [128, 256])
    tb = pl.load(b, [0, 0], [128, 256])
    tc = pl.add(ta, tb)
    return pl.store(tc, [0, 0], out)
)");
  auto it = std::find_if(got.diagnostics.begin(), got.diagnostics.end(), [](const Diagnostic& d) { return d.rule == "MEM001"; });
  ASSERT_NE(it, got.diagnostics.end());
  EXPECT_EQ(it->severity, Severity::Warning);
  EXPECT_NE(it->message.find("not certain"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("the largest: 131072 bytes"), std::string::npos) << it->message;
}

TEST(SramRules, TheResultOfTileStoreIsTheGmTensorNotATile) {
  // `buf = pl.tile.store(t, ..., buf)` rebinds the GM tensor (upstream's gate.py): no on-chip copy of
  // the 64 MiB tensor, only the stored tile.
  auto got = estimateText("k.py", R"(import pypto.language as pl


@pl.jit
def rows(x: pl.Tensor[[4096, 4096], pl.FP32], buf: pl.Out[pl.Tensor[[4096, 4096], pl.FP32]]):
    for tok in pl.spmd(4096, name_hint="row_copy"):
        t = pl.tile.load(x, [tok, 0], [1, 4096])
        buf = pl.tile.store(t, [tok, 0], buf, shapes=[1, 4096])
    return buf
)");
  ASSERT_EQ(got.rows.size(), 1u);
  EXPECT_EQ(got.rows[0].function, "row_copy");
  ASSERT_TRUE(got.rows[0].estimate);
  EXPECT_EQ(*got.rows[0].estimate, 16384);
  for (const Diagnostic& d : got.diagnostics) EXPECT_NE(d.rule, "MEM001") << d.message;
}

TEST(SramRules, ShrinkAdviceSaysWhichDimensionToWhatWithTheResultingEstimate) {
  auto got = estimateText("k.py", test::readFile(fixtures() / "FUSE003_bad.py"));
  auto it = std::find_if(got.diagnostics.begin(), got.diagnostics.end(), [](const Diagnostic& d) { return d.rule == "FUSE003"; });
  ASSERT_NE(it, got.diagnostics.end());
  EXPECT_NE(it->message.find("shrink dimension 0 of 't' from 256 to 128 ([128, 256], a loop over 2 blocks) for an "
                             "estimated 131072 bytes (69.6%)"),
            std::string::npos)
      << it->message;
}

TEST(SramRules, FuseAdviceNamesBothKernelsTheTensorTheBytesAndTheFusedEstimate) {
  auto got = estimateText("k.py", test::readFile(fixtures() / "FUSE001_bad.py"));
  auto it = std::find_if(got.diagnostics.begin(), got.diagnostics.end(), [](const Diagnostic& d) { return d.rule == "FUSE001"; });
  ASSERT_NE(it, got.diagnostics.end());
  EXPECT_NE(it->message.find("fuse 'scale_by_three' and 'add_bias'"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("'scaled' goes through GM between them (131072 bytes stored and loaded again)"),
            std::string::npos)
      << it->message;
  EXPECT_NE(it->message.find("Vec use is 131072 of 188416 bytes (69.6%)"), std::string::npos) << it->message;
}

// A cube kernel's BF16 result handed to a vector kernel: they run on different cores (AIC, AIV).
constexpr const char* kCubeToVector = R"(import pypto.language as pl


@pl.jit.incore
def project(
    x: pl.Tensor[[64, 128], pl.BF16],
    w: pl.Tensor[[128, 128], pl.BF16],
    h: pl.Out[pl.Tensor[[64, 128], pl.BF16]],
):
    acc = pl.matmul(x, w, out_dtype=pl.FP32)
    pl.store(acc, [0, 0], h)
    return h


@pl.jit.incore
def double(h: pl.Tensor[[64, 128], pl.BF16], y: pl.Out[pl.Tensor[[64, 128], pl.BF16]]):
    t = pl.load(h, [0, 0], [64, 128])
    d = pl.add(t, t)
    pl.store(d, [0, 0], y)
    return y


@pl.jit
def chain(
    x: pl.Tensor[[64, 128], pl.BF16],
    w: pl.Tensor[[128, 128], pl.BF16],
    y: pl.Out[pl.Tensor[[64, 128], pl.BF16]],
):
    h = pl.create_tensor([64, 128], dtype=pl.BF16)
    h = project(x, w, h)
    y = double(h, y)
    return y
)";

const Diagnostic* findRule(const std::vector<Diagnostic>& found, const std::string& rule) {
  auto it = std::find_if(found.begin(), found.end(), [&](const Diagnostic& d) { return d.rule == rule; });
  return it == found.end() ? nullptr : &*it;
}

TEST(SramRules, OnA2a3ACubeResultHandedToAVectorKernelIsNoFuseAdviceTheHandOffStaysInGm) {
  // Fused, the two halves still run on AIC and AIV: on a2a3 TPUSH writes the tile to GM and TPOP reads
  // it back, so no GM traffic is saved (pypto-language-and-runtime.md §6).
  std::vector<SramRow> rows;
  auto found = test::estimatePythonText("k.py", kCubeToVector, rows, Platform::A2A3, Config{});
  EXPECT_EQ(findRule(found, "FUSE001"), nullptr) << findRule(found, "FUSE001")->message;
}

TEST(SramRules, OnA5ACubeToVectorFuseAdviceIsAMixedScopeWithThePipesRingInTheConsumer) {
  // On a5 TPUSH writes the consumer's Vec directly. GM bytes in the stored tensor's element type: the
  // FP32 accumulator goes to a BF16 tensor, 64 x 128 x 2 B there and back (32768). The ring: 2 slots
  // of the [64, 128] BF16 tile (32768 bytes); d = t + t is written in place (the packer's MemoryReuse).
  std::vector<SramRow> rows;
  auto found = test::estimatePythonText("k.py", kCubeToVector, rows, Platform::A5, Config{});
  const Diagnostic* d = findRule(found, "FUSE001");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("fuse 'project' (AIC) and 'double' (AIV) into one mixed incore scope"), std::string::npos)
      << d->message;
  EXPECT_NE(d->message.find("'h' goes through GM between them (32768 bytes stored and loaded again)"),
            std::string::npos)
      << d->message;
  EXPECT_NE(d->message.find("the estimated Vec use is 32768 of"), std::string::npos) << d->message;
}

TEST(SramRules, GrowAdviceGivesTheLargestTileThatStillFits) {
  auto got = estimateText("k.py", test::readFile(fixtures() / "FUSE002_bad.py"));
  auto it = std::find_if(got.diagnostics.begin(), got.diagnostics.end(), [](const Diagnostic& d) { return d.rule == "FUSE002"; });
  ASSERT_NE(it, got.diagnostics.end());
  // 16384 bytes (2 buffers of [16, 128] FP32): x8 = 131072 fits, x16 = 262144 does not.
  EXPECT_NE(it->message.find("uses 16384 of 188416 bytes of Vec (8.7%)"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("up to 8x"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("[16, 128] -> [128, 128]"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("131072 bytes (69.6%)"), std::string::npos) << it->message;
}

TEST(SramRules, LowUsageThresholdIsConfigurable) {
  Config config;
  config.options["fuse.low_usage_percent"] = "5";
  auto got = estimateText("k.py", test::readFile(fixtures() / "FUSE002_bad.py"), config);
  EXPECT_TRUE(std::none_of(got.diagnostics.begin(), got.diagnostics.end(), [](const Diagnostic& d) { return d.rule == "FUSE002"; }));
  config.options["mem.near_capacity_percent"] = "5";
  got = estimateText("k.py", test::readFile(fixtures() / "FUSE002_bad.py"), config);
  EXPECT_TRUE(std::any_of(got.diagnostics.begin(), got.diagnostics.end(), [](const Diagnostic& d) { return d.rule == "MEM002"; }));
}

TEST(SramRules, EstimateRowsCarryTheKernelNameAndTheProgramName) {
  auto got = estimateText("tiny.py", test::readFile(fixtures() / "MEM002_bad.py"));
  ASSERT_EQ(got.rows.size(), 1u);
  EXPECT_EQ(got.rows[0].project, "tiny");
  EXPECT_EQ(got.rows[0].function, "wide_incore_0");
  EXPECT_EQ(got.rows[0].space, "Vec");
  EXPECT_EQ(got.rows[0].estimate, 180224);
  EXPECT_FALSE(got.rows[0].actual);
  EXPECT_EQ(got.rows[0].capacity, 188416);
}

TEST(SramRules, UnparsableOrEmptyInputGivesNoFindingAndNoCrash) {
  for (std::string text : {"", "def (:\n", "import pypto.language as pl\n@pl.jit\ndef f(x):\n    with pl.at(:\n",
                           "import pypto.language as pl\n@pl.jit\ndef f(x: pl.Tensor[[N, 4], pl.FP32]):\n"
                           "    with pl.at(level=pl.Level.CORE_GROUP):\n        t = pl.load(x, [0, 0], [N, 4])\n"}) {
    auto got = estimateText("k.py", text);
    EXPECT_TRUE(got.diagnostics.empty()) << text;
  }
}

}  // namespace
}  // namespace portcheck

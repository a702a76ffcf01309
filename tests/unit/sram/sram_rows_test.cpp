// Estimate rows and the compiler's rows line up by project + function + space, whichever comes first.
#include <gtest/gtest.h>

#include "sram/sram_estimator.h"

namespace portcheck {
namespace {

SramRow row(std::string fn, std::string space, std::optional<std::int64_t> est, std::optional<std::int64_t> act,
            std::string core = "") {
  SramRow r;
  r.project = "p";
  r.function = std::move(fn);
  r.space = std::move(space);
  r.estimate = est;
  r.actual = act;
  r.core = std::move(core);
  r.capacity = 188416;
  return r;
}

TEST(SramRows, CompilerRowsMergeIntoEstimatesAndTakeTheCompilersCore) {
  std::vector<SramRow> rows = {row("k_incore_0", "Vec", 65536, std::nullopt, "AIV")};
  SramRow actual = row("k_incore_0", "Vec", std::nullopt, 98304, "InCore");
  actual.largest.push_back({"tx__tile", 32768, "program.py", 12});
  sram::mergeSramRows(rows, {actual, row("other", "Vec", std::nullopt, 1024)});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].estimate, 65536);
  EXPECT_EQ(rows[0].actual, 98304);
  EXPECT_EQ(rows[0].core, "InCore");
  ASSERT_EQ(rows[0].largest.size(), 1u);
  EXPECT_EQ(rows[0].largest[0].name, "tx__tile");
  EXPECT_EQ(rows[1].function, "other");
  EXPECT_FALSE(rows[1].estimate);
}

TEST(SramRows, EstimatesMergeIntoCompilerRowsWithoutOverwritingTheActualFigure) {
  std::vector<SramRow> rows = {row("k", "Vec", std::nullopt, 98304, "AIV"), row("k", "Mat", std::nullopt, 4096, "AIC")};
  sram::mergeSramRows(rows, {row("k", "Vec", 65536, std::nullopt, "AIV"), row("j", "Vec", 1024, std::nullopt)});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].estimate, 65536);
  EXPECT_EQ(rows[0].actual, 98304);
  EXPECT_FALSE(rows[1].estimate);  // no Mat estimate for k
  EXPECT_EQ(rows[2].function, "j");
}

// A file compiling two programs (two @pl.jit entries) names its compiler rows <file>:<program>; each
// joins the estimate of its kernel, which takes the program's name. A kernel of the same name in the
// other program gets a row of its own.
TEST(SramRows, RowsOfAFileWithSeveralProgramsJoinTheirKernelsEstimate) {
  std::vector<SramRow> rows = {row("body", "Vec", 2560, std::nullopt, "AIV")};
  SramRow first = row("body", "Vec", std::nullopt, 2560, "AIV");
  first.project = "p:first";
  SramRow second = row("body", "Vec", std::nullopt, 4096, "AIV");
  second.project = "p:second";
  sram::mergeSramRows(rows, {first, second});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].project, "p:first");
  EXPECT_EQ(rows[0].estimate, 2560);
  EXPECT_EQ(rows[0].actual, 2560);
  EXPECT_EQ(rows[1].project, "p:second");
  EXPECT_FALSE(rows[1].estimate);
  EXPECT_EQ(rows[1].actual, 4096);
}

// The rows are found through an index (a model tree merges thousands): the first row of a name in row order
// takes the figure, a row renamed to its program is found under the new name by a later row, and rows
// merged one at a time land as they would in one call.
TEST(SramRows, TheFirstRowOfANameTakesTheFigureAndARenamedRowIsFoundByItsNewName) {
  std::vector<SramRow> rows = {row("k", "Vec", 100, std::nullopt), row("k", "Vec", 200, std::nullopt),
                               row("body", "Vec", 2560, std::nullopt)};
  SramRow renamed = row("body", "Vec", std::nullopt, 2600);
  renamed.project = "p:prog";
  SramRow again = row("body", "Vec", 2700, std::nullopt);
  again.project = "p:prog";
  sram::mergeSramRows(rows, {row("k", "Vec", std::nullopt, 150), renamed, again});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].actual, 150);
  EXPECT_FALSE(rows[1].actual);
  EXPECT_EQ(rows[2].project, "p:prog");
  EXPECT_EQ(rows[2].actual, 2600);
  EXPECT_EQ(rows[2].estimate, 2700);
  std::vector<SramRow> many, one_by_one;
  std::vector<SramRow> estimates;
  for (int i = 0; i < 600; ++i)
    estimates.push_back(row("k" + std::to_string(i % 200), i / 200 == 1 ? "Vec" : "Mat", i, std::nullopt));
  sram::mergeSramRows(many, estimates);
  for (const SramRow& e : estimates) sram::mergeSramRows(one_by_one, {e});
  ASSERT_EQ(many.size(), 400u);  // 200 functions x 2 spaces
  ASSERT_EQ(one_by_one.size(), many.size());
  for (std::size_t i = 0; i < many.size(); ++i) {
    EXPECT_EQ(many[i].function, one_by_one[i].function);
    EXPECT_EQ(many[i].estimate, one_by_one[i].estimate);
  }
  EXPECT_EQ(many[0].estimate, 400);  // k0 Mat: estimates 0 and 400, the last wins
  EXPECT_EQ(many[200].function, "k0");
  EXPECT_EQ(many[200].estimate, 200);  // k0 Vec
}

TEST(SramRows, TheCompilersCopiesOfAKernelTakeItsEstimateAndSaySo) {
  // Unrolling and repeated instances: the compiler compiles decode_attn three times (decode_attn,
  // decode_attn_0, decode_attn_1; split kernels keep the suffix before _aic / _aiv).
  std::vector<SramRow> rows = {row("decode_attn", "Vec", std::nullopt, 65536), row("decode_attn_0", "Vec", std::nullopt, 65536),
                               row("decode_attn_1", "Vec", std::nullopt, 66048), row("mix_2_aiv", "Vec", std::nullopt, 8192),
                               row("layer_7", "Vec", std::nullopt, 4096), row("decode_attn_0", "Mat", std::nullopt, 512)};
  sram::mergeSramRows(rows, {row("decode_attn", "Vec", 65536, std::nullopt), row("mix_aiv", "Vec", 8000, std::nullopt),
                             row("layer_7", "Vec", 4000, std::nullopt)});
  EXPECT_EQ(rows[1].estimate, 65536);
  EXPECT_EQ(rows[1].estimate_from, "decode_attn");
  EXPECT_EQ(rows[2].estimate, 65536);
  EXPECT_EQ(rows[3].estimate, 8000);
  EXPECT_EQ(rows[3].estimate_from, "mix_aiv");
  EXPECT_EQ(rows[4].estimate, 4000) << "a kernel named like a copy that has its own estimate keeps it";
  EXPECT_TRUE(rows[4].estimate_from.empty());
  EXPECT_FALSE(rows[5].estimate) << "no estimate of decode_attn in Mat: nothing to copy";
  EXPECT_TRUE(rows[0].estimate_from.empty());
  // An exact estimate arriving later replaces the copied one.
  sram::mergeSramRows(rows, {row("decode_attn_1", "Vec", 66000, std::nullopt)});
  EXPECT_EQ(rows[2].estimate, 66000);
  EXPECT_TRUE(rows[2].estimate_from.empty());
}

}  // namespace
}  // namespace portcheck

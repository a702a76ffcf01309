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

}  // namespace
}  // namespace portcheck

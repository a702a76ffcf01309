// One finding per site: the compiler's PERF001 [PH001] supersedes the lint's DSL117 forecast of it.
#include <gtest/gtest.h>

#include "app/compiler_supersedes.h"

namespace portcheck {
namespace {

Diagnostic finding(const std::string& rule, int line, const std::string& message) {
  Diagnostic d;
  d.rule = rule;
  d.file = "projects/p/pypto_src/incore.py";
  d.line = line;
  d.message = message;
  return d;
}

TEST(CompilerSupersedes, TheCompilersNarrowRowHintReplacesTheLintsAtTheSameLine) {
  Report r;
  r.diagnostics = {finding("DSL117", 12, "tile.load has innermost dim = 256B"),
                   finding("DSL117", 30, "tile.store has innermost dim = 128B"),
                   finding("PERF001", 12, "[PH001] TileInnermostDimGranularity: tile.load has innermost dim = 256B")};
  EXPECT_EQ(dropSupersededLintFindings(r), 1u);
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].rule, "DSL117");
  EXPECT_EQ(r.diagnostics[0].line, 30) << "a site the compiler did not report keeps the lint's finding";
  EXPECT_EQ(r.diagnostics[1].rule, "PERF001");
  ASSERT_EQ(r.diagnostics[1].notes.size(), 1u);
  EXPECT_NE(r.diagnostics[1].notes[0].message.find("DSL117"), std::string::npos);
}

TEST(CompilerSupersedes, OtherCompilerHintsSupersedeNothing) {
  Report r;
  r.diagnostics = {finding("DSL117", 12, "tile.load has innermost dim = 256B"),
                   finding("PERF001", 12, "[PH-MR-001] stages share buffers")};
  EXPECT_EQ(dropSupersededLintFindings(r), 0u);
  EXPECT_EQ(r.diagnostics.size(), 2u);
}

}  // namespace
}  // namespace portcheck

// The lint engine builds one DSL model per unit for the DSL rules and the estimator, and inline
// suppression comments silence estimator findings (MEM/FUSE) as they do DSL findings.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "test_support.h"

namespace portcheck {
namespace {

constexpr const char* kLowUsage = R"(import pypto.language as pl


@pl.jit
def small_diff(u: pl.Tensor[[256, 128], pl.FP32], v: pl.Tensor[[256, 128], pl.FP32], out: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    for rb in pl.range(16):
        with pl.at(level=pl.Level.CORE_GROUP):{SUPPRESS}
            tu = pl.load(u, [rb * 16, 0], [16, 128])
            tv = pl.load(v, [rb * 16, 0], [16, 128])
            d = pl.sub(tu, tv)
            pl.store(d, [rb * 16, 0], out)
    return out
)";

std::vector<std::string> rulesFound(const std::string& program) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("small_diff.py", program);
  auto o = test::optionsIn(ws.path(), Format::Json);
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"small_diff.py"}, io); });
  std::vector<std::string> rules;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  for (const auto& d : report["diagnostics"]) rules.push_back(d["rule"].get<std::string>());
  return rules;
}

TEST(EstimateSuppression, AdviceIsReportedWithoutAComment) {
  std::string program = replaceAll(kLowUsage, "{SUPPRESS}", "");
  auto rules = rulesFound(program);
  EXPECT_NE(std::find(rules.begin(), rules.end(), "FUSE002"), rules.end());
}

TEST(EstimateSuppression, InlineCommentSilencesEstimatorAdvice) {
  std::string program = replaceAll(kLowUsage, "{SUPPRESS}", "  # port-check: ignore[FUSE002]");
  auto rules = rulesFound(program);
  EXPECT_EQ(std::find(rules.begin(), rules.end(), "FUSE002"), rules.end());
  EXPECT_EQ(std::find(rules.begin(), rules.end(), "DSL003"), rules.end()) << "the suppression is used";
}

}  // namespace
}  // namespace portcheck

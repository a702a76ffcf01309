// Accuracy of the SRAM estimator against the real compiler: for every recorded case of
// tests/fixtures/pypto-real, the estimate from program.py alone is compared with the compiler's
// AllocateMemoryAddr high-water mark per (function, space) — the `sram` rows of expected.json, and
// the `used` figure of an out-of-memory error (attributed to the one kernel using that space when
// the compiler names no function). Target: within +-10% for at least 90% of the pairs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/source_file.h"
#include "dsl/dsl_model.h"
#include "sram/sram_estimator.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Pair {
  std::string where;
  std::int64_t actual = 0;
  std::optional<std::int64_t> estimate;
};

std::vector<sram::KernelEstimate> estimateCase(const fs::path& dir) {
  std::vector<SourceFile> files(1);
  files[0].path = "program.py";
  files[0].text = test::readFile(dir / "program.py");
  dsl::ProgramModel model = dsl::buildProgramModel(files);
  return sram::estimateProgram(model, Platform::A2A3);
}

std::optional<std::int64_t> lookup(const std::vector<sram::KernelEstimate>& ks, const std::string& fn,
                                   const std::string& space) {
  const sram::SpaceEstimate* found = nullptr;
  int matches = 0;
  for (const auto& k : ks) {
    if (!fn.empty() && k.kernel != fn) continue;
    if (const auto* s = k.space(space)) {
      found = s;
      ++matches;
    }
  }
  if (!found || (fn.empty() && matches != 1)) return std::nullopt;
  return found->hwm;
}

std::vector<Pair> collectPairs() {
  std::vector<Pair> pairs;
  fs::path root = fs::path(test::fixturesDir()) / "pypto-real";
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(root))
    if (e.is_directory() && fs::exists(e.path() / "expected.json") && fs::exists(e.path() / "program.py"))
      cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  for (const fs::path& c : cases) {
    json expected = json::parse(test::readFile(c / "expected.json"));
    auto ks = estimateCase(c);
    std::string name = c.filename().string();
    if (expected.contains("sram") && expected["sram"].is_array())
      for (const json& s : expected["sram"]) {
        std::string fn = s["function"], space = s["space"];
        pairs.push_back({name + " " + fn + " " + space, s["hwm"].get<std::int64_t>(), lookup(ks, fn, space)});
      }
    const json& err = expected.value("error", json());
    if (err.is_object() && err.value("kind", "") == "oom" && err["used"].is_number() && err["space"].is_string()) {
      std::string fn = err["function"].is_string() ? err["function"].get<std::string>() : "";
      std::string space = err["space"];
      pairs.push_back({name + " " + (fn.empty() ? "(oom)" : fn) + " " + space, err["used"].get<std::int64_t>(),
                       lookup(ks, fn, space)});
    }
  }
  return pairs;
}

TEST(SramEstimatorAccuracy, WithinTenPercentOfTheCompilerForNinetyPercentOfPairs) {
  std::vector<Pair> pairs = collectPairs();
  ASSERT_GE(pairs.size(), 20u) << "the fixture set lost its SRAM figures";
  int within = 0;
  std::string misses;
  for (const Pair& p : pairs) {
    bool ok = p.estimate && std::abs(static_cast<double>(*p.estimate - p.actual)) <= 0.10 * static_cast<double>(p.actual);
    if (ok) ++within;
    else
      misses += "  " + p.where + ": actual " + std::to_string(p.actual) + ", estimate " +
                (p.estimate ? std::to_string(*p.estimate) : std::string("none")) + "\n";
  }
  double share = static_cast<double>(within) / static_cast<double>(pairs.size());
  std::printf("SRAM estimator: %d of %zu (function, space) pairs within +-10%% (%.1f%%)\n%s", within, pairs.size(),
              100.0 * share, misses.c_str());
  EXPECT_GE(share, 0.90) << misses;
}

TEST(SramEstimatorAccuracy, ElementwiseChainSharesBuffersLikeMemoryReuse) {
  auto ks = estimateCase(fs::path(test::fixturesDir()) / "pypto-real" / "01-vec-elementwise");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].kernel, "fused_add_mul_incore_0");
  const auto* vec = ks[0].space("Vec");
  ASSERT_NE(vec, nullptr);
  EXPECT_EQ(vec->tiles.size(), 4u);   // tx, tz, total, prod
  EXPECT_EQ(vec->buffers.size(), 2u); // total and prod reuse tz's buffer; tx lives to the mul
  EXPECT_EQ(vec->hwm, 65536);
}

TEST(SramEstimatorAccuracy, MixedKernelSplitsIntoCubeAndVectorHalvesWithThePipeRing) {
  auto ks = estimateCase(fs::path(test::fixturesDir()) / "pypto-real" / "25-pipe-ring-oom-program");
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_EQ(ks[0].kernel, "deep_ring_incore_0_aic");
  EXPECT_EQ(ks[1].kernel, "deep_ring_incore_0_aiv");
  const auto* vec = ks[1].space("Vec");
  ASSERT_NE(vec, nullptr);
  EXPECT_EQ(vec->reserved, 4 * 65536);  // pl.cross_core_slot(slot_num=4) x the [128, 128] FP32 tile
  EXPECT_EQ(vec->hwm, 4 * 65536 + 32768);
  EXPECT_GT(vec->hwm, vec->capacity);
}

}  // namespace
}  // namespace portcheck

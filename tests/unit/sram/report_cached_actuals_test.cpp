// port-check report without compiling: the compiler's actual figures come from the compile cache when
// it holds a compile of the same sources (the entry the compile stage itself would replay, same key),
// marked as read from the cache in the table, the JSON rows and the HTML page. A stale, corrupt or
// missing entry, another platform or no toolchain: no actual figures, no crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "compiler/compile_cache.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class ReportCachedActuals : public ::testing::Test {
 protected:
  void SetUp() override {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("pypto/python/pypto/__init__.py", "");  // enough for toolchain discovery
    ws.write("projects/chain/pypto_src/FAKE_MODE", "ok\n");
    ws.write("projects/chain/pypto_src/golden.py", "RTOL = 1e-5\n");
    ws.write("projects/chain/pypto_src/program.py",
             test::readFile(fs::path(test::fixturesDir()) / "sram_rules" / "FUSE001_bad.py"));
  }

  CommonOptions options(Format f, bool toolchain = true) {
    CommonOptions o = test::optionsIn(ws.path(), f);
    o.toolchain.pypto = toolchain ? ws / "pypto" : ws / "nowhere";
    o.toolchain.python = test::fakeCompilePython();
    return o;
  }
  test::CommandResult report(Format f, bool toolchain = true, ReportOptions ro = {}) {
    CommonOptions o = options(f, toolchain);
    return test::runInProcess([&](const Io& io) { return runReport(o, ro, {"projects/chain"}, io); });
  }

  // Compiles the project with the stand-in compiler (the compile stage stores its result under its own
  // key), then puts the compiler's figures for one kernel into that very entry, as a real compile whose
  // analysis read an AllocateMemoryAddr dump would have.
  fs::path compileAndRecordActuals(Platform platform = Platform::A2A3) {
    CommonOptions o = options(Format::Json);
    o.platform = platform;
    auto r = test::runInProcess([&](const Io& io) { return runCompile(o, {}, {"projects/chain"}, io); });
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    fs::path entry;
    for (const auto& e : fs::recursive_directory_iterator(ws / ".port-check-cache/results"))
      if (e.path().extension() == ".json") entry = e.path();
    EXPECT_FALSE(entry.empty()) << "the compile stage cached nothing";
    std::string key = entry.stem().string();
    fs::path root = ws / ".port-check-cache";
    std::optional<CompileOutcome> o2 = loadCachedCompile(root, {}, key);
    EXPECT_TRUE(o2);
    SramRow row;
    row.project = "chain";
    row.function = "scale_by_three";
    row.core = "AIV";
    row.space = "Vec";
    row.actual = 98304;
    row.capacity = 188416;
    row.tiles = 2;
    o2->sram.push_back(row);
    std::string error;
    EXPECT_TRUE(storeCachedCompile(root, {}, key, *o2, error)) << error;
    return entry;
  }

  static const json* row(const json& report, const std::string& function) {
    for (const json& r : report["sram"])
      if (r["function"] == function) return &r;
    return nullptr;
  }
  static std::string stageDetail(const json& report, const std::string& name) {
    for (const json& s : report["run"]["stages"])
      if (s["name"] == name) return s["state"].get<std::string>() + ": " + s["detail"].get<std::string>();
    return "";
  }

  test::TempDir ws;
};

TEST_F(ReportCachedActuals, JsonRowsCarryTheCachedActualBesideTheEstimateAndSayWhereItCameFrom) {
  compileAndRecordActuals();
  auto r = report(Format::Json);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  json j = json::parse(r.out);
  const json* scale = row(j, "scale_by_three");
  ASSERT_NE(scale, nullptr) << r.out;
  EXPECT_TRUE((*scale)["estimate"].is_number()) << *scale;
  EXPECT_EQ((*scale)["actual"], 98304) << *scale;
  EXPECT_EQ((*scale)["actual_source"], "cache") << *scale;
  EXPECT_NEAR((*scale)["utilisation"].get<double>(), 52.2, 0.05);  // the actual figure wins
  const json* bias = row(j, "add_bias");
  ASSERT_NE(bias, nullptr);
  EXPECT_TRUE((*bias)["actual"].is_null());
  EXPECT_TRUE((*bias)["actual_source"].is_null());
  EXPECT_NE(stageDetail(j, "compile cache").find("ran: actual figures of chain read from the compile cache"),
            std::string::npos)
      << j["run"]["stages"];
  EXPECT_EQ(r.out.find(ws.path().string()), std::string::npos) << "absolute paths leaked";
}

TEST_F(ReportCachedActuals, TheTextTableMarksCachedActualsAndTheHtmlPageToo) {
  compileAndRecordActuals();
  ReportOptions ro;
  ro.html = "page.html";
  auto r = report(Format::Text, true, ro);
  EXPECT_NE(r.out.find("98304*"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("* actual read from the compile cache"), std::string::npos) << r.out;
  std::string page = test::readFile(ws / "page.html");
  EXPECT_NE(page.find("<td class=\"cached\" title=\"read from the compile cache\">98,304*</td>"), std::string::npos);
  EXPECT_NE(page.find("id=\"cached-actuals\""), std::string::npos);
  EXPECT_NE(page.find("actual 98,304 bytes (from the compile cache)"), std::string::npos);
}

TEST_F(ReportCachedActuals, AChangedSourceMakesTheEntryStaleAndTheActualsDisappear) {
  compileAndRecordActuals();
  ws.write("projects/chain/pypto_src/program.py",
           test::readFile(ws / "projects/chain/pypto_src/program.py") + "# edited after the compile\n");
  auto r = report(Format::Json);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  json j = json::parse(r.out);
  const json* scale = row(j, "scale_by_three");
  ASSERT_NE(scale, nullptr);
  EXPECT_TRUE((*scale)["actual"].is_null()) << *scale;
  EXPECT_NE(stageDetail(j, "compile cache").find("skipped: no valid cached compile of chain"), std::string::npos)
      << j["run"]["stages"];
}

TEST_F(ReportCachedActuals, AnotherPlatformsCompileIsNotUsed) {
  compileAndRecordActuals(Platform::A5);
  auto r = report(Format::Json);  // a2a3
  json j = json::parse(r.out);
  const json* scale = row(j, "scale_by_three");
  ASSERT_NE(scale, nullptr);
  EXPECT_TRUE((*scale)["actual"].is_null()) << *scale;
}

TEST_F(ReportCachedActuals, ACorruptEntryGivesNoActualsAndNoCrash) {
  fs::path entry = compileAndRecordActuals();
  for (const char* junk : {"{ not json", "", "{\"schema\": 1}", "[1, 2]"}) {
    std::ofstream(entry, std::ios::trunc) << junk;
    auto r = report(Format::Json);
    EXPECT_EQ(r.exit_code, 0) << junk << "\n" << r.out << r.err;
    json j = json::parse(r.out);
    const json* scale = row(j, "scale_by_three");
    ASSERT_NE(scale, nullptr) << junk;
    EXPECT_TRUE((*scale)["actual"].is_null()) << junk;
  }
}

TEST_F(ReportCachedActuals, WithoutAToolchainTheCacheIsNotReadAndTheReportSaysWhy) {
  compileAndRecordActuals();
  auto r = report(Format::Json, /*toolchain=*/false);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  json j = json::parse(r.out);
  const json* scale = row(j, "scale_by_three");
  ASSERT_NE(scale, nullptr);
  EXPECT_TRUE((*scale)["actual"].is_null());
  EXPECT_NE(stageDetail(j, "compile cache").find("skipped: no actual figures: without a PyPTO toolchain"),
            std::string::npos)
      << j["run"]["stages"];
}

TEST_F(ReportCachedActuals, ReportDoesNotCompile) {
  auto r = report(Format::Json);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(fs::exists(ws / "projects/chain/runs.log")) << "the stand-in compiler ran";
  EXPECT_FALSE(fs::exists(ws / ".port-check-cache/results"));
}

}  // namespace
}  // namespace portcheck

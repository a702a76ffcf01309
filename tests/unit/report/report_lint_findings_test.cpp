// port-check report shows the lint findings `lint` shows for the same paths: a report that says
// `0 errors, 0 warnings` where lint finds some would tell the reader the port is clean.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> findings(const std::string& json_text) {
  std::vector<std::string> out;
  const nlohmann::json j = nlohmann::json::parse(json_text);
  for (const auto& d : j["diagnostics"])
    out.push_back(d["rule"].get<std::string>() + " " + d["file"].dump() + ":" + d["line"].dump());
  return out;
}

TEST(ReportLintFindings, AreTheFindingsLintReportsOnTheSamePaths) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  fs::create_directories(ws / "projects");
  fs::copy(test::fixturesDir() + "/ledger/rows", ws / "projects/rows", fs::copy_options::recursive);
  CommonOptions o = test::optionsIn(ws.path(), Format::Json);
  o.toolchain.pypto = ws / "no-pypto";
  o.kernel_compile.enabled = false;
  auto lint = test::runInProcess([&](const Io& io) { return runLint(o, {"projects/rows"}, io, {}); });
  ReportOptions ro;
  ro.cache_dir = (ws / "cache").string();
  auto report = test::runInProcess([&](const Io& io) { return runReport(o, ro, {"projects/rows"}, io); });
  std::vector<std::string> linted = findings(lint.out);
  ASSERT_FALSE(linted.empty()) << lint.out;  // the fixture's DSL111 errors
  std::vector<std::string> reported = findings(report.out);
  for (const std::string& f : linted)
    EXPECT_NE(std::find(reported.begin(), reported.end(), f), reported.end()) << f << " is missing from the report";
  EXPECT_EQ(report.exit_code, lint.exit_code);
}

}  // namespace
}  // namespace portcheck

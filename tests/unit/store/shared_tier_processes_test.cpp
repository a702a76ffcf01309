// Two port-check processes writing the same entry into one store at once (two agents linting the same
// port), then a third on a fresh cache root reading it through: configured by PORTCHECK_CACHE_REMOTE,
// counted by `port-check cache stats --format json`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "loopback_servers.h"
#include "store/envelope.h"
#include "store/store_backend.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kDemoKernel = R"(import pypto.language as pl


@pl.program
class Demo:
    @pl.function
    def main(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        return x
)";

json cacheStats(const fs::path& ws, const std::string& cache_dir, const std::string& env = "") {
  test::CommandResult r = test::runShell("cd '" + ws.string() + "' && " + env + PORTCHECK_BINARY +
                                         " cache stats --format json --cache-dir " + cache_dir);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  return json::parse(r.out, nullptr, false);
}

class SharedTierProcesses : public ::testing::TestWithParam<std::string> {};

TEST_P(SharedTierProcesses, TwoWritersOfOneKeyLeaveOneIntactEntry) {
  test::TempDir tmp;
  test::LoopbackServer server;
  std::string skip;
  std::optional<std::string> url = GetParam() == "redis" ? test::startRedis(server, tmp / "server", skip)
                                                         : test::startNginxDav(server, tmp / "server", skip);
  if (!url) GTEST_SKIP() << skip;
  fs::path ws = tmp / "ws";
  fs::create_directories(ws / "projects/demo/pypto_src");
  std::ofstream(ws / "port-check.json") << "{}\n";
  std::ofstream(ws / "projects/demo/pypto_src/kernel.py") << kDemoKernel;
  const std::string env = "PORTCHECK_CACHE_REMOTE=" + *url + " ";
  const std::string lint = std::string(PORTCHECK_BINARY) + " lint --format json projects/demo --cache-dir ";
  // Both at once, each with its own local cache, as two agents on two machines.
  test::CommandResult both = test::runShell("cd '" + ws.string() + "' && (" + env + lint + "c1 > out1.json 2>err1.txt & " +
                                            env + lint + "c2 > out2.json 2>err2.txt & wait) && cat err1.txt err2.txt");
  EXPECT_EQ(both.out, "");  // no notes: nothing failed, nothing was rejected
  json s1 = cacheStats(ws, "c1"), s2 = cacheStats(ws, "c2");
  EXPECT_EQ(s1["stats"]["remote"]["writes"].get<int>() + s2["stats"]["remote"]["writes"].get<int>() +
                s1["stats"]["remote"]["hits"].get<int>() + s2["stats"]["remote"]["hits"].get<int>(),
            2);  // each either wrote the unit or (when the other was faster) read it

  test::CommandResult third = test::runShell("cd '" + ws.string() + "' && " + env + lint + "c3 2>&1");
  json s3 = cacheStats(ws, "c3", env);
  EXPECT_EQ(s3["stats"]["remote"]["hits"], 1);
  EXPECT_EQ(s3["stats"]["remote"]["rejected"], 0);
  EXPECT_EQ(s3["stats"]["local"]["misses"], 1);
  EXPECT_EQ(s3["remote"], *url);
  // The same findings as the processes that linted it.
  json a = json::parse(test::readFile(ws / "out1.json"), nullptr, false), c = json::parse(third.out, nullptr, false);
  ASSERT_FALSE(a.is_discarded());
  ASSERT_FALSE(c.is_discarded()) << third.out;
  EXPECT_EQ(a["diagnostics"], c["diagnostics"]);
}

TEST_P(SharedTierProcesses, ABadRemoteInTheEnvironmentIsTool004) {
  test::TempDir ws;
  ws.write("port-check.json", "{}\n");
  ws.write("projects/demo/pypto_src/kernel.py", kDemoKernel);
  const std::string bad = GetParam() == "redis" ? "redis://127.0.0.1:notaport" : "ftp://127.0.0.1:21/";
  test::CommandResult r =
      test::runShell("cd '" + ws.path().string() + "' && PORTCHECK_CACHE_REMOTE='" + bad + "' " + PORTCHECK_BINARY +
                     " lint projects/demo 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("PORTCHECK_CACHE_REMOTE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TOOL004"), std::string::npos) << r.out;
  // Empty disables the remote tier, whatever the file says.
  ws.write("port-check.json", "{\"cache\": {\"remote\": \"redis://127.0.0.1:1\"}}\n");
  r = test::runShell("cd '" + ws.path().string() + "' && PORTCHECK_CACHE_REMOTE= " + PORTCHECK_BINARY +
                     " cache stats --format json");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(json::parse(r.out)["remote"].is_null()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Stores, SharedTierProcesses, ::testing::Values("redis", "http"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace portcheck

// --shard I/N of check, lint and verify (app/shard_option.h): the value checked, every unit in exactly one
// shard whatever else is named and in what order, an empty shard a clean run, and each shard's SARIF log
// its own code scanning category.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "app/shard_option.h"
#include "test_support.h"

namespace portcheck {
namespace {

using nlohmann::json;

struct ShardWorkspace {
  test::TempDir ws;
  std::vector<std::string> units;  // workspace-relative: 9 projects and 2 loose files
  ShardWorkspace() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    for (int i = 0; i < 9; ++i) {
      const std::string p = "projects/port" + std::to_string(i);
      ws.write(p + "/pypto_src/golden.py", "RTOL = 1e-5\n");
      ws.write(p + "/pypto_src/incore.py", "ROWS = " + std::to_string(8 * (i + 1)) + "\n");
      units.push_back(p);
    }
    ws.write("lib/a.py", "X = 1\n");
    ws.write("lib/b.py", "Y = 2\n");
    units.push_back("lib/a.py");
    units.push_back("lib/b.py");
  }
  test::CommandResult lint(std::vector<std::string> paths, std::optional<std::string> shard, Format f = Format::Json) {
    CommonOptions o = test::optionsIn(ws.path(), f);
    o.kernel_compile.enabled = false;
    o.shard = shard;
    return test::runInProcess([&](const Io& io) { return runLint(o, paths, io, {}); });
  }
  // The units a JSON report checked: each file's project folder, or the file itself.
  std::set<std::string> checked(const test::CommandResult& r) {
    std::set<std::string> out;
    json j = json::parse(r.out);
    for (const json& f : j["run"]["files"]) {
      std::string path = f.get<std::string>();
      const std::size_t src = path.find("/pypto_src/");
      out.insert(src == std::string::npos ? path : path.substr(0, src));
    }
    return out;
  }
};

TEST(ShardOption, TakesIOfNCountedFromOne) {
  std::string error;
  auto s = parseShard("2/4", error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 4);
  EXPECT_TRUE(parseShard("1/1", error));
  EXPECT_TRUE(parseShard("4/4", error));
  for (const char* bad : {"0/4", "5/4", "1/0", "-1/4", "a/4", "1/b", "1", "", "1/4/2", " 1/4", "1/4096x"}) {
    EXPECT_FALSE(parseShard(bad, error)) << bad;
    EXPECT_NE(error.find("--shard takes I/N"), std::string::npos) << error;
  }
  parseShard("0/4", error);
  EXPECT_NE(error.find("counted from 1 (1/4 is the first)"), std::string::npos) << error;
}

TEST(ShardOption, ABadValueIsAUsageErrorWithExitTwo) {
  ShardWorkspace w;
  auto r = w.lint({"projects"}, "0/3");
  EXPECT_EQ(r.exit_code, kExitToolError);
  EXPECT_NE(r.err.find("port-check: error: --shard takes I/N, shard I of N counted from 1"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(w.lint({"projects"}, "4/3").exit_code, kExitToolError);
}

// The union of the shards is the unsharded run, with no unit in two shards.
TEST(ShardOption, EveryUnitIsInExactlyOneShard) {
  ShardWorkspace w;
  auto all = w.lint({"projects", "lib"}, std::nullopt);
  ASSERT_NE(all.exit_code, kExitToolError) << all.out << all.err;
  const std::set<std::string> everything = w.checked(all);
  ASSERT_EQ(everything, std::set<std::string>(w.units.begin(), w.units.end()));
  for (int n : {1, 2, 3, 5}) {
    std::set<std::string> seen;
    std::size_t total = 0;
    for (int i = 1; i <= n; ++i) {
      auto r = w.lint({"projects", "lib"}, std::to_string(i) + "/" + std::to_string(n));
      ASSERT_NE(r.exit_code, kExitToolError) << r.out << r.err;
      const std::set<std::string> part = w.checked(r);
      for (const std::string& u : part) EXPECT_EQ(shardOfUnit(u, n), i) << u;
      total += part.size();
      seen.insert(part.begin(), part.end());
    }
    EXPECT_EQ(seen, everything) << n << " shards";
    EXPECT_EQ(total, everything.size()) << n << " shards: a unit in two shards";
  }
}

// A unit's shard depends on its path alone: not on the order of the arguments or on the other units named.
TEST(ShardOption, AUnitsShardDoesNotDependOnTheOtherUnitsOrTheirOrder) {
  ShardWorkspace w;
  for (int i = 1; i <= 3; ++i) {
    const std::string shard = std::to_string(i) + "/3";
    const std::set<std::string> together = w.checked(w.lint({"projects", "lib"}, shard));
    const std::set<std::string> reversed = w.checked(w.lint({"lib/b.py", "lib/a.py", "projects"}, shard));
    EXPECT_EQ(together, reversed);
    for (const std::string& u : w.units) {
      auto alone = w.lint({u}, shard);
      ASSERT_NE(alone.exit_code, kExitToolError) << alone.err;
      EXPECT_EQ(w.checked(alone).count(u), together.count(u)) << u << " in " << shard;
    }
  }
  // And not on the workspace's place on disk: the same paths in another folder fall in the same shards.
  ShardWorkspace other;
  for (int i = 1; i <= 3; ++i) {
    const std::string shard = std::to_string(i) + "/3";
    EXPECT_EQ(w.checked(w.lint({"projects", "lib"}, shard)), other.checked(other.lint({"projects", "lib"}, shard)));
  }
}

TEST(ShardOption, AShardWithNoUnitSaysSoAndExitsZeroWithAnEmptySarifLog) {
  ShardWorkspace w;
  // The shard of 2 that projects/port0 is not in.
  const int empty = shardOfUnit("projects/port0", 2) == 1 ? 2 : 1;
  auto r = w.lint({"projects/port0"}, std::to_string(empty) + "/2", Format::Sarif);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("has none of the 1 unit named (the other shards check them): nothing to lint here"),
            std::string::npos)
      << r.err;
  json sarif = json::parse(r.out);
  EXPECT_TRUE(sarif["runs"][0]["results"].empty());
  EXPECT_EQ(sarif["runs"][0]["automationDetails"]["id"], "port-check/lint/shard-" + std::to_string(empty) + "-of-2/");
  // A path that does not exist is still an error in every shard (it is no unit of any).
  auto missing = w.lint({"projects/nowhere"}, "1/2");
  EXPECT_EQ(missing.exit_code, kExitToolError) << missing.out;
}

TEST(ShardOption, EachShardsSarifLogHasItsOwnCategory) {
  ShardWorkspace w;
  std::set<std::string> ids;
  for (int i = 1; i <= 3; ++i) {
    auto r = w.lint({"projects"}, std::to_string(i) + "/3", Format::Sarif);
    json sarif = json::parse(r.out);
    ids.insert(sarif["runs"][0]["automationDetails"]["id"].get<std::string>());
  }
  EXPECT_EQ(ids, (std::set<std::string>{"port-check/lint/shard-1-of-3/", "port-check/lint/shard-2-of-3/",
                                        "port-check/lint/shard-3-of-3/"}));
  auto unsharded = json::parse(w.lint({"projects"}, std::nullopt, Format::Sarif).out);
  EXPECT_FALSE(unsharded["runs"][0].contains("automationDetails"));
  EXPECT_EQ(shardAutomationId("verify", {2, 4}), "port-check/verify/shard-2-of-4/");
}

TEST(ShardOption, CheckAndVerifyShardToo) {
  ShardWorkspace w;
  const int empty = shardOfUnit("projects/port0", 2) == 1 ? 2 : 1;
  CommonOptions o = test::optionsIn(w.ws.path(), Format::Sarif);
  o.kernel_compile.enabled = false;
  o.shard = std::to_string(empty) + "/2";
  CompileOptions c;
  c.no_ledger = true;
  auto check = test::runInProcess([&](const Io& io) { return runCheck(o, {"projects/port0"}, io, c); });
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_NE(check.err.find("nothing to check here"), std::string::npos) << check.err;
  EXPECT_EQ(json::parse(check.out)["runs"][0]["automationDetails"]["id"],
            "port-check/check/shard-" + std::to_string(empty) + "-of-2/");
  auto verify = test::runInProcess([&](const Io& io) { return runVerify(o, c, {"projects/port0"}, io, {}); });
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  EXPECT_NE(verify.err.find("nothing to verify here"), std::string::npos) << verify.err;
  o.shard = "2/1";
  EXPECT_EQ(test::runInProcess([&](const Io& io) { return runVerify(o, c, {"projects"}, io, {}); }).exit_code,
            kExitToolError);
}

}  // namespace
}  // namespace portcheck

// What counts as an attempt: a change of the sources or of the toolchain. An identical re-run is a
// repeat of the attempt before it; a ledger copied with its project folder is not the copy's history;
// `port-check new` records the skeleton, so filling it in is not a tangled change (LOOP003).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ledger/attempt_builder.h"
#include "ledger/attempt_recorder.h"
#include "ledger/ledger_view.h"
#include "ledger_workspace.h"
#include "toolchain/toolchain_identity.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::LedgerWorkspace;

json ledgerJson(const LedgerWorkspace& ws, const std::string& project = "projects/rows") {
  return json::parse(ws.ledger(Format::Json, false, project).out);
}

int count(const json& diagnostics, const std::string& rule) {
  int n = 0;
  for (const json& d : diagnostics) n += d["rule"] == rule;
  return n;
}

TEST(AttemptIdentity, AnIdenticalReRunIsARepeatNotANewAttempt) {
  LedgerWorkspace ws;
  ws.check();
  ws.check();  // cached replay, nothing changed
  CommonOptions a5 = ws.options();
  a5.platform = Platform::A5;  // a platform switch over the same sources
  test::runInProcess([&](const Io& io) { return runCheck(a5, {"projects/rows"}, io, {}); });
  json j = ledgerJson(ws);
  ASSERT_EQ(j["attempts"].size(), 1u) << j.dump(1);
  EXPECT_EQ(j["attempts"][0]["attempt"], 1);
  EXPECT_EQ(j["attempts"][0]["repeats"], 2);
  EXPECT_EQ(j["attempts"][0]["platform"], "a5");  // the attempt shows its newest run
  EXPECT_NE(j["attempts"][0]["cells"]["result"].get<std::string>().find("re-run 2 times"), std::string::npos);
  // The file keeps each run: the attempt, then its two repeats.
  std::string file = test::readFile(ws.ledgerFile());
  EXPECT_EQ(std::count(file.begin(), file.end(), '\n'), 3) << file;
  EXPECT_NE(file.find("\"kind\":\"repeat\""), std::string::npos);

  ws.fix();
  ws.check();
  j = ledgerJson(ws);
  ASSERT_EQ(j["attempts"].size(), 2u);
  EXPECT_EQ(j["attempts"][1]["attempt"], 2);
  EXPECT_EQ(j["attempts"][1]["cells"]["change"], "incore.py line 7");
}

TEST(AttemptIdentity, AnotherPtoasIsAnotherToolchain) {
  Toolchain t;
  t.found = true;
  t.pypto_root = "/opt/pypto";
  t.revision = "e2d0f78a";
  t.python = "python3";
  t.ptoas = "/opt/ptoas-0.57/ptoas";
  Toolchain other = t;
  other.ptoas = "/opt/ptoas-0.27/ptoas";  // PTOAS_ROOT pointing at another ptoas
  EXPECT_NE(toolchainIdentity(t), toolchainIdentity(other));
  EXPECT_EQ(toolchainIdentity(t), toolchainIdentity(t));
  EXPECT_EQ(toolchainIdentity(Toolchain{}), "none");
}

TEST(AttemptIdentity, AChangedToolchainIsANewAttemptThatSaysSo) {
  LedgerWorkspace ws;
  Workspace w{fs::canonical(ws.dir.path())};
  Targets targets = collectTargets(w, w.root, {"projects/rows"});
  const Project& project = targets.projects.at(0);
  ledger::ProjectSources sources = ledger::readProjectSources(w, project);
  auto record = [&](const std::string& toolchain) {
    ledger::RunContext run{"compile", "2026-11-25T09:30:00Z", toolchain, "pypto at ../pypto", {}, {}};
    ledger::Attempt a = ledger::attemptFromReport(Report{}, w, project, sources, {}, run);
    ledger::PendingAttempt p = ledger::prepareAttempt(project.dir, std::move(a), sources, {}, {});
    ledger::commitAttempt(p, 0, 200);
    return p;
  };
  record("ptoas-a");
  ledger::PendingAttempt same = record("ptoas-a");
  EXPECT_TRUE(same.repeat);
  ledger::PendingAttempt other = record("ptoas-b");
  EXPECT_FALSE(other.repeat);
  EXPECT_EQ(other.attempt.number, 2);
  EXPECT_TRUE(other.attempt.toolchain_changed);
  EXPECT_EQ(ledger::describeChange(other.attempt), "toolchain changed");
}

TEST(AttemptIdentity, ACopiedProjectIgnoresTheOriginalsAttempts) {
  LedgerWorkspace ws;
  ws.fix();
  ws.check();  // projects/rows attempt 1: clean
  fs::copy(ws.dir / "projects/rows", ws.dir / "projects/rows2", fs::copy_options::recursive);  // cp -r
  // The copy's first check has DSL111, which the original's attempt 1 did not have: no LOOP004 for it.
  fs::copy_file(test::fixturesDir() + "/ledger/rows/pypto_src/incore.py", ws.dir / "projects/rows2/pypto_src/incore.py",
                fs::copy_options::overwrite_existing);
  json r = json::parse(ws.check(Format::Json, {}, "projects/rows2").out);
  EXPECT_EQ(count(r["diagnostics"], "LOOP004"), 0) << r["diagnostics"].dump(1);
  bool flagged = false;
  for (const json& d : r["diagnostics"])
    flagged |= d["rule"] == "TOOL007" &&
               d["message"].get<std::string>().find("1 record belongs to projects/rows, not to projects/rows2") !=
                   std::string::npos;
  EXPECT_TRUE(flagged) << r["diagnostics"].dump(1);
  json j = ledgerJson(ws, "projects/rows2");
  ASSERT_EQ(j["attempts"].size(), 1u);
  EXPECT_EQ(j["attempts"][0]["project"], "projects/rows2");
  EXPECT_EQ(j["attempts"][0]["changes"], nullptr);  // its first attempt: nothing of its own to compare with
  EXPECT_EQ(count(j["diagnostics"], "TOOL007"), 0) << "the copied records were dropped when attempt 1 was recorded";
  EXPECT_EQ(ledgerJson(ws)["attempts"].size(), 1u);  // the original keeps its own
}

TEST(AttemptIdentity, FillingInTheSkeletonOfPortCheckNewIsNotATangledChange) {
  LedgerWorkspace ws;
  auto create = [&](const std::string& name) {
    NewOptions no;
    no.name = name;
    return test::runInProcess([&](const Io& io) { return runNew(ws.options(), no, io); });
  };
  ASSERT_EQ(create("fresh").exit_code, 0);
  json j = ledgerJson(ws, "projects/fresh");
  ASSERT_EQ(j["attempts"].size(), 1u);
  EXPECT_EQ(j["attempts"][0]["command"], "new");
  EXPECT_EQ(j["attempts"][0]["scaffold"], true);
  ws.check(Format::Json, {}, "projects/fresh");  // the untouched skeleton: a repeat of it
  // The first real edit rewrites the whole incore file: many places, as the workflow asks.
  std::string incore;
  for (int i = 0; i < 12; ++i) incore += "A" + std::to_string(i) + " = " + std::to_string(i) + "\n\n\n";
  ws.dir.write("projects/fresh/pypto_src/incore.py", test::readFile(ws.dir / "projects/rows/pypto_src/incore.py") + incore);
  json first_edit = json::parse(ws.check(Format::Json, {}, "projects/fresh").out);
  EXPECT_EQ(count(first_edit["diagnostics"], "LOOP003"), 0) << first_edit["diagnostics"].dump(1);
  // The same kind of edit later is tangled.
  std::string text = test::readFile(ws.dir / "projects/fresh/pypto_src/incore.py");
  std::string edited;
  std::size_t pos = 0;
  for (int i = 0; i < 12; ++i) {
    std::string from = "A" + std::to_string(i) + " = ";
    std::size_t at = text.find(from, pos);
    edited += text.substr(pos, at - pos) + "B" + std::to_string(i) + " = ";
    pos = at + from.size();
  }
  edited += text.substr(pos);
  ws.dir.write("projects/fresh/pypto_src/incore.py", edited);
  json later = json::parse(ws.check(Format::Json, {}, "projects/fresh").out);
  EXPECT_EQ(count(later["diagnostics"], "LOOP003"), 1) << later["diagnostics"].dump(1);
}

}  // namespace
}  // namespace portcheck

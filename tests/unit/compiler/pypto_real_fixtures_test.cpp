// For every recorded compile in tests/fixtures/pypto-real/, the analysis reproduces the facts of
// that case's expected.json: the error (kind, via, exception, function, space, used, limit,
// location, message, note, help, Check-failed tail, report), the SRAM high-water marks per
// (function, space) incl. the non-compute ones, the perf hints and their summary, and the warnings.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "compile_fixture_support.h"
#include "compiler/compile_record.h"
#include "compiler/memory_dump_parser.h"
#include "compiler/sram_usage.h"
#include "core/text.h"
#include "output/sram_table.h"

namespace portcheck {
namespace {

using nlohmann::json;
using test::expectedDisplay;
using test::fixtureExpected;
using test::fixtureRecord;

std::string str(const json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

class RealCompileFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(RealCompileFixture, AnalysisReproducesExpectedFacts) {
  const std::string c = GetParam();
  const json expected = fixtureExpected(c);
  CompileRecord record = fixtureRecord(c);
  CompileAnalysis a = analyzeCompile(record, Platform::A2A3);

  // --- error ---
  const json& err = expected["error"];
  if (err.is_null()) {
    EXPECT_TRUE(a.errors.empty()) << a.errors.front().message;
    EXPECT_EQ(a.succeeded, expected["exit_code"].get<int>() == 0);
  } else {
    ASSERT_FALSE(a.errors.empty());
    EXPECT_FALSE(a.succeeded);
    const CompilerError& e = a.errors.front();
    EXPECT_EQ(e.kind, err["kind"].get<std::string>());
    if (err.contains("via")) EXPECT_EQ(e.via, err["via"].get<std::string>());
    if (err.contains("subkind")) EXPECT_EQ(e.subkind, err["subkind"].get<std::string>());
    EXPECT_EQ(e.exception, err["exception"].is_null() ? "" : err["exception"].get<std::string>());
    if (err.contains("function")) {
      if (err["function"].is_null())
        EXPECT_TRUE(e.function.empty() || e.attributed) << "a function the compiler does not name must be marked attributed";
      else
        EXPECT_EQ(e.function, err["function"].get<std::string>());
    }
    if (err.contains("unit")) EXPECT_EQ(e.unit, err["unit"].get<std::string>());
    if (err.contains("members") && err["members"].is_array())
      EXPECT_EQ(e.members, err["members"].get<std::vector<std::string>>());
    if (err.contains("space")) {
      EXPECT_EQ(e.space, err["space"].is_null() ? "" : err["space"].get<std::string>());
      if (err["used"].is_null()) EXPECT_FALSE(e.used.has_value());
      else EXPECT_EQ(e.used.value_or(-1), err["used"].get<std::int64_t>());
      if (err["limit"].is_null()) EXPECT_FALSE(e.limit.has_value());
      else EXPECT_EQ(e.limit.value_or(-1), err["limit"].get<std::int64_t>());
    }
    if (!err["file"].is_null()) {
      std::string root = err.contains("file_root") ? err["file_root"].get<std::string>() : "<case>";
      EXPECT_EQ(e.location.file, expectedDisplay(c, err["file"].get<std::string>(), root));
      EXPECT_EQ(e.location.line, err["line"].get<int>());
      EXPECT_EQ(e.location.column, err["col"].get<int>());
    } else if (e.location.known()) {
      // No location in the compiler's output: port-check's attribution must point into the user's sources.
      EXPECT_EQ(e.location.file, expectedDisplay(c, "program.py"));
    }
    EXPECT_EQ(e.message, err["message"].get<std::string>());
    if (err.contains("note")) EXPECT_EQ(e.note, err["note"].is_null() ? "" : err["note"].get<std::string>());
    if (err.contains("help")) EXPECT_EQ(e.help, err["help"].is_null() ? "" : err["help"].get<std::string>());
    if (err.contains("headline")) EXPECT_EQ(e.headline, err["headline"].get<std::string>());
    if (err.contains("ptoas_root")) EXPECT_EQ(e.ptoas_root, err["ptoas_root"].get<std::string>());
    if (err.contains("tried")) EXPECT_EQ(e.tried, err["tried"].get<std::vector<std::string>>());
    if (err.contains("report")) EXPECT_EQ(e.report, expectedDisplay(c, err["report"].get<std::string>(), "<out>"));
    if (err.contains("check_failed")) {
      ASSERT_TRUE(e.check_failed.has_value());
      EXPECT_EQ(e.check_failed->expr, err["check_failed"]["expr"].get<std::string>());
      EXPECT_EQ(e.check_failed->source, err["check_failed"]["source"].get<std::string>());
      EXPECT_EQ(e.check_failed->line, err["check_failed"]["line"].get<int>());
    }
    // The error is reported as a diagnostic of its rule, at its location, never leaking compiler paths.
    bool found = false;
    for (const Diagnostic& d : a.diagnostics)
      if (d.rule == e.rule) {
        found = true;
        EXPECT_EQ(d.severity, Severity::Error);
        EXPECT_EQ(d.source, Stage::Compiler);
        EXPECT_EQ(d.file, e.location.file);
        EXPECT_EQ(d.message.find("<pypto>"), std::string::npos) << d.message;
        EXPECT_EQ(d.message.find("Check failed"), std::string::npos) << d.message;
        EXPECT_EQ(d.message.find("C++ Traceback"), std::string::npos) << d.message;
      }
    EXPECT_TRUE(found) << "no " << e.rule << " diagnostic";
  }

  // --- SRAM (compute functions) ---
  std::map<std::pair<std::string, std::string>, const SramRow*> rows;
  for (const SramRow& r : a.sram) rows[{r.function, r.space}] = &r;
  ASSERT_EQ(a.sram.size(), expected["sram"].size());
  std::optional<PassDump> dump;
  if (auto p = findPassDump(record.out_dir, "AllocateMemoryAddr")) dump = parsePassDump(test::readFile(*p));
  for (const json& s : expected["sram"]) {
    std::string fn = s["function"], space = s["space"];
    SCOPED_TRACE(fn + " " + space);
    ASSERT_TRUE(rows.count({fn, space}));
    const SramRow& r = *rows[{fn, space}];
    EXPECT_EQ(r.core, s["core"].get<std::string>());
    EXPECT_EQ(r.actual.value_or(-1), s["hwm"].get<std::int64_t>());
    EXPECT_EQ(r.capacity, s["limit"].get<std::int64_t>());
    EXPECT_DOUBLE_EQ(test::round2(utilisationPercent(r).value_or(-1)), s["pct"].get<double>());
    EXPECT_EQ(r.tiles, s["tile_vars"].get<int>());
    EXPECT_FALSE(r.largest.empty());
    ASSERT_TRUE(dump.has_value());
    for (const DumpFunction& f : dump->functions)
      if (f.name == fn)
        for (const SpaceUsage& u : spaceUsage(f, nullptr))
          if (u.space == space) EXPECT_EQ(u.bases, s["bases"].get<int>());
  }
  // --- SRAM (tiles in non-compute functions) ---
  std::size_t noncompute = expected.contains("sram_noncompute") && expected["sram_noncompute"].is_array()
                               ? expected["sram_noncompute"].size()
                               : 0;
  ASSERT_EQ(a.sram_noncompute.size(), noncompute);
  for (std::size_t i = 0; i < noncompute; ++i) {
    const json& s = expected["sram_noncompute"][i];
    EXPECT_EQ(a.sram_noncompute[i].function, s["function"].get<std::string>());
    EXPECT_EQ(a.sram_noncompute[i].core, s["core"].get<std::string>());
    EXPECT_EQ(a.sram_noncompute[i].space, s["space"].get<std::string>());
    EXPECT_EQ(a.sram_noncompute[i].actual.value_or(-1), s["hwm"].get<std::int64_t>());
    EXPECT_EQ(a.sram_noncompute[i].capacity, s["limit"].get<std::int64_t>());
  }

  // --- perf hints ---
  ASSERT_EQ(a.perf_hints.size(), expected["perf_hints"].size());
  for (std::size_t i = 0; i < a.perf_hints.size(); ++i) {
    const json& h = expected["perf_hints"][i];
    const PerfHint& p = a.perf_hints[i];
    EXPECT_EQ(p.code, h["code"].get<std::string>());
    EXPECT_EQ(p.check, h["check"].get<std::string>());
    EXPECT_EQ(p.location.file, expectedDisplay(c, h["file"].get<std::string>()));
    EXPECT_EQ(p.location.line, h["line"].get<int>());
    EXPECT_EQ(p.location.column, h["col"].get<int>());
    EXPECT_EQ(p.message, h["message"].get<std::string>());
  }
  const json& summary = expected["perf_hint_summary"];
  ASSERT_EQ(a.perf_hint_summary.has_value(), !summary.is_null());
  if (!summary.is_null()) {
    EXPECT_EQ(a.perf_hint_summary->hints, summary["hints"].get<int>());
    EXPECT_EQ(a.perf_hint_summary->sites, summary["sites"].get<int>());
    EXPECT_EQ(a.perf_hint_summary->path,
              replaceAll(summary["path"].get<std::string>(), "<out>", test::outDisplay(c)));
  }

  // --- warnings ---
  ASSERT_EQ(a.warnings.size(), expected["warnings"].size());
  for (std::size_t i = 0; i < a.warnings.size(); ++i) {
    const json& w = expected["warnings"][i];
    const CompilerWarning& cw = a.warnings[i];
    EXPECT_EQ(cw.check, w["check"].get<std::string>());
    EXPECT_EQ(cw.phase, w["phase"].get<std::string>());
    EXPECT_EQ(cw.location.file, expectedDisplay(c, w["file"].get<std::string>()));
    EXPECT_EQ(cw.location.line, w["line"].get<int>());
    EXPECT_EQ(cw.location.column, w["col"].get<int>());
    EXPECT_EQ(cw.message, w["message"].get<std::string>());
  }

  // --- one diagnostic per hint and warning; every location inside the user's sources or the output folder ---
  std::map<std::string, std::size_t> per_rule;
  for (const Diagnostic& d : a.diagnostics) {
    ++per_rule[d.rule];
    if (!d.file.empty())
      EXPECT_TRUE(d.file.rfind(test::sourceDisplay(c) + "/", 0) == 0 || d.file.rfind(test::outDisplay(c) + "/", 0) == 0)
          << d.rule << " at " << d.file;
    for (const DiagnosticNote& n : d.notes)
      if (!n.file.empty()) EXPECT_TRUE(n.file.rfind(test::sourceDisplay(c) + "/", 0) == 0) << n.file;
  }
  EXPECT_EQ(per_rule["PERF001"], expected["perf_hints"].size());
  EXPECT_EQ(per_rule["COMP012"], expected["warnings"].size());
}

INSTANTIATE_TEST_SUITE_P(PyptoReal, RealCompileFixture, ::testing::ValuesIn(test::realFixtureCases()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return "case_" + n;
                         });

TEST(RealCompileFixtures, EveryRecordedCaseIsCovered) {
  EXPECT_EQ(test::realFixtureCases().size(), 30u);
}

}  // namespace
}  // namespace portcheck

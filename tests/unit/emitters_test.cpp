// Every emitter against expected output for one fixed report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <tinyxml2.h>

#include "output/emitter.h"
#include "rules/catalogue.h"

namespace portcheck {
namespace {

Report sampleReport() {
  Report r;
  r.run.tool_version = "0.1.0";
  r.run.catalogue_version = "0.1.0";
  r.run.platform = "a2a3";
  r.run.toolchain = "pypto not found";
  r.run.files = {"projects/softmax/pypto_src/incore.py"};
  r.run.stages = {{"lint", StageState::Ran, ""}, {"compile", StageState::Skipped, "no pypto"}};
  Diagnostic a = makeDiagnostic("DSL001", "projects/softmax/pypto_src/incore.py", 12, 5, "invalid syntax");
  a.end_line = 12;
  a.end_column = 9;
  Diagnostic b = makeDiagnostic("PROJ001", "projects/softmax/pypto_src", 0, 0, "project 'softmax' has no pypto_src/golden.py");
  Diagnostic c = makeDiagnostic("TOOL003", "", 0, 0, "compile stage skipped: no pypto");
  r.diagnostics = {a, b, c};
  r.finalize();
  return r;
}

TEST(TextEmitter, PrintsGccStyleLinesHintsAndASummary) {
  std::string out = emitText(sampleReport(), {});
  EXPECT_EQ(out,
            "port-check: info: compile stage skipped: no pypto [TOOL003]\n"
            "    hint: install or point port-check at the missing tool (--pypto DIR or PYPTO_ROOT for the compiler)\n"
            "projects/softmax/pypto_src: error: project 'softmax' has no pypto_src/golden.py [PROJ001]\n"
            "    hint: add pypto_src/golden.py with generate_inputs(), compute_golden() and RTOL/ATOL (port-check new "
            "NAME scaffolds one from templates/)\n"
            "projects/softmax/pypto_src/incore.py:12:5: error: invalid syntax [DSL001]\n"
            "    hint: fix the syntax at the marked position\n"
            "\n2 errors, 0 warnings, 1 info in 1 file\n");
}

TEST(TextEmitter, ColoursOnlyWhenAsked) {
  EXPECT_EQ(emitText(sampleReport(), {}).find("\x1b["), std::string::npos);
  EmitOptions color;
  color.color = true;
  EXPECT_NE(emitText(sampleReport(), color).find("\x1b[1;31merror:"), std::string::npos);
}

TEST(TextEmitter, PrintsTheSramTable) {
  Report r = sampleReport();
  SramRow row;
  row.project = "softmax";
  row.function = "softmax_incore_0";
  row.core = "AIV";
  row.space = "Vec";
  row.actual = 65536;
  row.capacity = 188416;
  row.tiles = 4;
  r.sram.push_back(row);
  std::string out = emitText(r, {});
  EXPECT_NE(out.find("SRAM usage (bytes)"), std::string::npos);
  EXPECT_NE(out.find("  function                  core  space  estimate  actual  capacity    use  tiles\n"
                     "  softmax:softmax_incore_0  AIV   Vec           -   65536    188416  34.8%      4\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("34.8%"), std::string::npos);
}

TEST(JsonEmitter, WritesSchemaVersionSummaryAndNullsForUnknownPositions) {
  nlohmann::json j = nlohmann::json::parse(emitJson(sampleReport(), {}));
  EXPECT_EQ(j["schema_version"], kJsonSchemaVersion);
  EXPECT_EQ(j["summary"]["errors"], 2);
  EXPECT_EQ(j["summary"]["infos"], 1);
  ASSERT_EQ(j["diagnostics"].size(), 3u);
  const auto& dsl = j["diagnostics"][2];
  EXPECT_EQ(dsl["rule"], "DSL001");
  EXPECT_EQ(dsl["name"], "python-syntax-error");
  EXPECT_EQ(dsl["line"], 12);
  EXPECT_EQ(dsl["end_column"], 9);
  EXPECT_EQ(dsl["source"], "lint");
  EXPECT_EQ(dsl["doc"], "docs/rules.md#dsl001");
  EXPECT_TRUE(j["diagnostics"][1]["line"].is_null());
  EXPECT_TRUE(j["diagnostics"][0]["file"].is_null());
  EXPECT_EQ(j["run"]["stages"][1]["state"], "skipped");
}

TEST(JsonEmitter, ReplacesInvalidUtf8InsteadOfThrowing) {
  Report r = sampleReport();
  r.diagnostics[0].message = std::string("compiler said \xff\xfe here");
  std::string out;
  ASSERT_NO_THROW(out = emitJson(r, {}));
  EXPECT_NE(out.find("compiler said \xEF\xBF\xBD"), std::string::npos);
}

TEST(SarifEmitter, HasRulesResultsRelativeUrisAndLevels) {
  nlohmann::json j = nlohmann::json::parse(emitSarif(sampleReport(), {}));
  EXPECT_EQ(j["version"], "2.1.0");
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "port-check");
  EXPECT_EQ(run["tool"]["driver"]["rules"].size(), 3u);
  const auto& res = run["results"][2];
  EXPECT_EQ(res["ruleId"], "DSL001");
  EXPECT_EQ(res["level"], "error");
  EXPECT_EQ(run["results"][0]["level"], "note");
  EXPECT_EQ(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "projects/softmax/pypto_src/incore.py");
  EXPECT_EQ(res["locations"][0]["physicalLocation"]["region"]["startLine"], 12);
  EXPECT_EQ(res["locations"][0]["physicalLocation"]["region"]["endColumn"], 9);
  int idx = res["ruleIndex"];
  EXPECT_EQ(run["tool"]["driver"]["rules"][idx]["id"], "DSL001");
  EXPECT_FALSE(run["tool"]["driver"]["rules"][idx].contains("helpUri")) << "no invented URL without --doc-base-url";
  EXPECT_FALSE(run["results"][0].contains("locations"));
  EXPECT_EQ(run["invocations"][0]["toolExecutionNotifications"].size(), 1u);
}

TEST(SarifEmitter, UsesDocBaseUrlForHelpUriAndEncodesPaths) {
  Report r = sampleReport();
  r.diagnostics[2].file = "projects/my port/pypto_src/incore.py";
  EmitOptions o;
  o.doc_base_url = "https://example.org/port-check/";
  nlohmann::json j = nlohmann::json::parse(emitSarif(r, o));
  EXPECT_EQ(j["runs"][0]["tool"]["driver"]["rules"][2]["helpUri"], "https://example.org/port-check/docs/rules.md#dsl001");
  EXPECT_EQ(j["runs"][0]["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "projects/my%20port/pypto_src/incore.py");
}

TEST(JunitEmitter, OneSuitePerFileAndUniqueCaseNames) {
  Report r = sampleReport();
  Diagnostic again = r.diagnostics[2];
  again.line = 20;
  r.diagnostics.push_back(again);
  std::string xml = emitJunit(r, {});
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(xml.c_str()), tinyxml2::XML_SUCCESS);
  auto* root = doc.FirstChildElement("testsuites");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->IntAttribute("failures"), 3);
  std::vector<std::string> names;
  for (auto* s = root->FirstChildElement("testsuite"); s; s = s->NextSiblingElement("testsuite"))
    for (auto* c = s->FirstChildElement("testcase"); c; c = c->NextSiblingElement("testcase"))
      names.push_back(std::string(s->Attribute("name")) + "/" + c->Attribute("name"));
  std::vector<std::string> expected = {"port-check/TOOL003", "projects/softmax/pypto_src/PROJ001",
                                       "projects/softmax/pypto_src/incore.py/DSL001 12:5",
                                       "projects/softmax/pypto_src/incore.py/DSL001 20:5"};
  EXPECT_EQ(names, expected);
  EXPECT_NE(xml.find("<failure message=\"invalid syntax\" type=\"DSL001\">"), std::string::npos);
}

TEST(JunitEmitter, CleanFileIsAPassingCase) {
  Report r;
  r.run.files = {"a.py"};
  std::string xml = emitJunit(r, {});
  EXPECT_NE(xml.find("<testcase classname=\"a.py\" name=\"port-check\"/>"), std::string::npos);
  EXPECT_NE(xml.find("failures=\"0\""), std::string::npos);
}

TEST(JunitEmitter, FindingsBelowFailOnAreNotFailures) {
  Report r = sampleReport();  // two errors, one info
  r.add(makeDiagnostic("DSL104", "projects/softmax/pypto_src/incore.py", 30, 1, "a warning"));
  r.diagnostics.back().severity = Severity::Warning;
  r.finalize();
  auto failures = [&](std::optional<Severity> failing) {
    EmitOptions o;
    o.failing_severity = failing;
    tinyxml2::XMLDocument doc;
    std::string xml = emitJunit(r, o);
    EXPECT_EQ(doc.Parse(xml.c_str()), tinyxml2::XML_SUCCESS);
    int elements = 0;
    for (auto* s = doc.FirstChildElement("testsuites")->FirstChildElement("testsuite"); s; s = s->NextSiblingElement())
      for (auto* c = s->FirstChildElement("testcase"); c; c = c->NextSiblingElement("testcase"))
        elements += c->FirstChildElement("failure") != nullptr;
    EXPECT_EQ(doc.FirstChildElement("testsuites")->IntAttribute("failures"), elements) << xml;
    return elements;
  };
  EXPECT_EQ(failures(Severity::Error), 2);    // --fail-on error (the default): the warning is output only
  EXPECT_EQ(failures(Severity::Warning), 3);
  EXPECT_EQ(failures(Severity::Info), 4);
  EXPECT_EQ(failures(std::nullopt), 0);       // --fail-on never: exit 0, no failure
  EmitOptions never;
  never.failing_severity = std::nullopt;
  EXPECT_NE(emitJunit(r, never).find("<system-out>projects/softmax/pypto_src/incore.py:12:5: error: invalid syntax"),
            std::string::npos);
}

TEST(SarifEmitter, ExecutionSuccessfulFollowsTheExitStatus) {
  Report r = sampleReport();
  r.add(makeDiagnostic("TOOL001", "", 0, 0, "input path 'nope' does not exist"));
  r.finalize();
  EmitOptions o;
  o.exit_code = 2;
  nlohmann::json inv = nlohmann::json::parse(emitSarif(r, o))["runs"][0]["invocations"][0];
  EXPECT_EQ(inv["executionSuccessful"], false);
  EXPECT_EQ(inv["exitCode"], 2);
  bool said = false;
  for (const auto& n : inv["toolExecutionNotifications"])
    said |= n["level"] == "error" &&
            n["message"]["text"].get<std::string>().find("could not do its job (exit status 2): input path 'nope' "
                                                         "does not exist [TOOL001]") != std::string::npos;
  EXPECT_TRUE(said) << inv.dump();
  o.exit_code = 1;
  EXPECT_EQ(nlohmann::json::parse(emitSarif(r, o))["runs"][0]["invocations"][0]["executionSuccessful"], true);
}

TEST(GithubEmitter, EscapesDataAndProperties) {
  Report r;
  Diagnostic d = makeDiagnostic("DSL001", "dir,with:odd/file.py", 3, 7, "50% of\nlines");
  d.hint = "";
  d.doc = "";
  r.diagnostics = {d};
  EXPECT_EQ(emitGithub(r, {}),
            "::error file=dir%2Cwith%3Aodd/file.py,line=3,col=7,title=port-check DSL001::50%25 of%0Alines\n");
}

TEST(GithubEmitter, MapsInfoToNoticeAndAddsHint) {
  std::string out = emitGithub(sampleReport(), {});
  EXPECT_EQ(out.rfind("::notice title=port-check TOOL003::compile stage skipped: no pypto%0A  hint: ", 0), 0u);
}

TEST(Emitters, FormatNamesRoundTrip) {
  for (Format f : {Format::Text, Format::Json, Format::Sarif, Format::Junit, Format::Github})
    EXPECT_EQ(parseFormat(toString(f)), f);
  EXPECT_FALSE(parseFormat("xml"));
}

}  // namespace
}  // namespace portcheck

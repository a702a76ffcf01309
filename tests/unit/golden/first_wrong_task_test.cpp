// GOLD025, the first wrong task of a failing case (docs/first-wrong-task.md), on two real a2a3sim runs
// (tests/fixtures/run/README.md): a port bug found at its task, and a toolchain fault found as one.
#include <gtest/gtest.h>

#include "golden/run_analysis.h"
#include "output/json_model.h"
#include "test_support.h"

namespace portcheck {
namespace {

RunRecord localisedRecord(const std::string& name, const std::string& project) {
  RunRecord r;
  r.project = project;
  r.source_root = "/ws/projects/" + project + "/pypto_src";
  r.source_root_display = "projects/" + project + "/pypto_src";
  r.display_file = "projects/" + project + "/pypto_src/golden.py";
  r.platform = "a2a3sim";
  r.result_file_exists = true;
  r.path_map = {{"/ws/projects/" + project + "/pypto_src/", "projects/" + project + "/pypto_src/"}, {"/ws/", ""}};
  std::string text = test::readFile(test::fixturesDir() + "/run/results/" + name + ".json");
  EXPECT_FALSE(text.empty()) << name;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"<port>", r.source_root.string()},
                                 {"<workspace>", "/ws"}})
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  std::string error;
  EXPECT_TRUE(parseRunResult(text, r.result, error)) << name << ": " << error;
  return r;
}

const Diagnostic* findRule(const RunAnalysis& a, const std::string& rule) {
  for (const Diagnostic& d : a.diagnostics)
    if (d.rule == rule) return &d;
  return nullptr;
}

bool saysPart(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(FirstWrongTask, APortBugIsFoundAtTheTaskThatStoresTheWrongValues) {
  // row_softmax_naive with div_k multiplying by the row sum instead of dividing by it.
  RunRecord r = localisedRecord("real_sim_localise_port_bug", "row_softmax_naive");
  ASSERT_TRUE(r.result.localisation);
  EXPECT_EQ(r.result.localisation->verdict, "port_bug");
  ASSERT_TRUE(r.result.localisation->ir_passed.has_value());
  EXPECT_FALSE(*r.result.localisation->ir_passed);
  RunAnalysis a = analyzeRun(r);
  const Diagnostic* d = findRule(a, "GOLD025");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->file, "projects/row_softmax_naive/pypto_src/incore.py");
  EXPECT_EQ(d->line, 48) << "the pl.store of div_k";
  EXPECT_TRUE(saysPart(d->message, "port bug")) << d->message;
  EXPECT_TRUE(saysPart(d->message, "task 4 of 160 (div_k, r0=0)")) << d->message;
  const Diagnostic* mismatch = findRule(a, "GOLD001");
  ASSERT_NE(mismatch, nullptr);
  bool noted = false;
  for (const DiagnosticNote& n : mismatch->notes) noted |= saysPart(n.message, "fails the golden too");
  EXPECT_TRUE(noted) << "the failing case's GOLD001 says whose fault it is";
}

TEST(FirstWrongTask, AToolchainFaultIsFoundAsOneWithTheSelfTestThatCoversIt) {
  // rmsnorm_residual built by clang++ without the BF16 fix (bfloat16_t = IEEE half, docs/doctor.md).
  RunRecord r = localisedRecord("real_sim_localise_toolchain", "rmsnorm_residual");
  ASSERT_TRUE(r.result.localisation);
  const RunLocalisation& l = *r.result.localisation;
  EXPECT_EQ(l.verdict, "toolchain");
  ASSERT_TRUE(l.ir_passed.has_value());
  EXPECT_TRUE(*l.ir_passed) << "the IR in torch passes: the program is right";
  ASSERT_TRUE(l.first);
  EXPECT_EQ(l.first->task_id, "0x0000000200000000");
  EXPECT_EQ(l.first->dtype, "bfloat16");
  EXPECT_EQ(l.first->self_test, "vector_bf16");
  EXPECT_GT(l.first->mismatches, 0);
  RunAnalysis a = analyzeRun(r);
  const Diagnostic* d = findRule(a, "GOLD025");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->file, "pypto-lib/rms_norm_residual/rms_norm_residual.py") << "the kernel the port imports";
  EXPECT_GT(d->line, 0);
  EXPECT_TRUE(saysPart(d->message, "toolchain fault")) << d->message;
  EXPECT_TRUE(saysPart(d->hint, "vector_bf16")) << d->hint;
  EXPECT_TRUE(saysPart(d->hint, "do not loosen the tolerance")) << d->hint;
  Report report;
  report.golden.push_back(a.run);
  nlohmann::json j = reportToJson(report, EmitOptions{});
  const nlohmann::json& loc = j["golden"][0]["localisation"];
  ASSERT_TRUE(loc.is_object()) << j["golden"][0].dump();
  EXPECT_EQ(loc["verdict"], "toolchain");
  EXPECT_EQ(loc["first_wrong_task"]["kernel"], "rms_norm_residual_rows");
  EXPECT_EQ(loc["first_wrong_task"]["file"], "pypto-lib/rms_norm_residual/rms_norm_residual.py");
}

TEST(FirstWrongTask, ARunThatDidNotLookHasNoLocalisation) {
  RunRecord r = localisedRecord("real_sim_contract_row_softmax", "row_softmax");
  EXPECT_FALSE(r.result.localisation);
  RunAnalysis a = analyzeRun(r);
  EXPECT_EQ(findRule(a, "GOLD025"), nullptr);
  Report report;
  report.golden.push_back(a.run);
  EXPECT_TRUE(reportToJson(report, EmitOptions{})["golden"][0]["localisation"].is_null());
}

TEST(FirstWrongTask, OutputsNoTaskWritesAreSaidSo) {
  RunRecord r = localisedRecord("real_sim_localise_port_bug", "row_softmax_naive");
  FirstWrongTask& t = *r.result.localisation->first;
  t.index.reset();
  t.kernel.clear();
  RunAnalysis a = analyzeRun(r);
  const Diagnostic* d = findRule(a, "GOLD025");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(saysPart(d->message, "no task stores")) << d->message;
  EXPECT_TRUE(saysPart(d->message, "never writes them")) << d->message;
}

TEST(FirstWrongTask, OrchestrationAndUndeterminedVerdictsAreWorded) {
  RunRecord r = localisedRecord("real_sim_localise_toolchain", "rmsnorm_residual");
  r.result.localisation->verdict = "orchestration";
  r.result.localisation->first.reset();
  const Diagnostic* d = nullptr;
  RunAnalysis a = analyzeRun(r);
  d = findRule(a, "GOLD025");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(saysPart(d->message, "order or dependencies")) << d->message;
  r.result.localisation->verdict = "undetermined";
  r.result.localisation->notes = {"simpler#1560: a5sim's per-task tensor dumps are not trusted"};
  RunAnalysis b = analyzeRun(r);
  d = findRule(b, "GOLD025");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(saysPart(d->message, "could not be told")) << d->message;
  ASSERT_FALSE(d->notes.empty());
  EXPECT_TRUE(saysPart(d->notes.back().message, "simpler#1560")) << d->notes.back().message;
}

TEST(FirstWrongTask, AStorePastATensorsEndIsFoundInTheIRRunWhereTheGuardZonesSeeNothing) {
  // A real a2a3sim run: four 16-row tiles stored into a 63-row output. The runtime copies exact-size
  // buffers, so the guard zones stay clean; the IR run in torch sees the last store reach one row past.
  RunRecord r = localisedRecord("real_sim_ir_overrun", "overrun");
  RunAnalysis a = analyzeRun(r);
  const Diagnostic* d = findRule(a, "GOLD023");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->file, "projects/overrun/pypto_src/incore.py");
  EXPECT_EQ(d->line, 14) << "the pl.store";
  EXPECT_TRUE(saysPart(d->message, "kernel 'double_rows' stores past the end of 'out': 512 bytes in 1 store")) << d->message;
  EXPECT_EQ(a.run.status, "failed") << "a store past the end fails the contract though every output matches";
  Report report;
  report.golden.push_back(a.run);
  nlohmann::json j = reportToJson(report, EmitOptions{});
  EXPECT_EQ(j["golden"][0]["contract"]["gaming"][0]["source"], "ir");
  EXPECT_EQ(j["golden"][0]["contract"]["gaming"][0]["kernel"], "double_rows");
}

}  // namespace
}  // namespace portcheck

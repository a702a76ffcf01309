// The correctness contract's runs as the run stage reads them (docs/contract.md): recorded adapter
// results of contract ports on the mock simulator (tests/fixtures/run/README.md), one finding per failing
// case and output, the checks against gamed goldens (GOLD020-GOLD023), the table and the JSON.
#include <gtest/gtest.h>

#include "golden/run_analysis.h"
#include "output/golden_table.h"
#include "output/json_model.h"
#include "test_support.h"

namespace portcheck {
namespace {

RunRecord contractRecord(const std::string& name) {
  RunRecord r;
  r.project = "row_softmax";
  r.source_root = "/ws/projects/row_softmax/pypto_src";
  r.source_root_display = "projects/row_softmax/pypto_src";
  r.display_file = "projects/row_softmax/pypto_src/golden.py";
  r.platform = "a2a3sim";
  r.result_file_exists = true;
  r.path_map = {{"/ws/projects/row_softmax/pypto_src/", "projects/row_softmax/pypto_src/"}};
  std::string text = test::readFile(test::fixturesDir() + "/run/results/" + name + ".json");
  EXPECT_FALSE(text.empty()) << name;
  for (std::size_t at = text.find("<port>"); at != std::string::npos; at = text.find("<port>", at))
    text.replace(at, 6, r.source_root.string());
  std::string error;
  EXPECT_TRUE(parseRunResult(text, r.result, error)) << name << ": " << error;
  return r;
}

std::string contractFindings(const RunAnalysis& a) {
  std::string s;
  for (const Diagnostic& d : a.diagnostics) {
    s += d.rule + ": " + d.message + "\n";
    for (const DiagnosticNote& n : d.notes) s += "  note: " + n.message + "\n";
  }
  return s;
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ContractAnalysis, EveryCaseUnderEverySeedIsReadWithItsFigures) {
  RunRecord r = contractRecord("contract_large_fails");
  ASSERT_TRUE(r.result.contract);
  EXPECT_EQ(r.result.contract_kind, "softmax");
  EXPECT_EQ(r.result.seeds, (std::vector<std::int64_t>{20260301, 7, 1234}));
  ASSERT_EQ(r.result.cases.size(), 6u);
  EXPECT_EQ(r.result.cases[0].label(), "base/20260301");
  EXPECT_TRUE(r.result.cases[0].passed);
  EXPECT_EQ(r.result.cases[3].label(), "large/20260301");
  EXPECT_FALSE(r.result.cases[3].passed);
  const GoldenOutput& base = r.result.cases[0].outputs.at(0);
  EXPECT_EQ(base.case_id, "base/20260301");
  EXPECT_EQ(base.comparator, "allclose");
  ASSERT_TRUE(base.cosine);
  EXPECT_NEAR(*base.cosine, 1.0, 1e-9);
  EXPECT_FALSE(base.ulp_histogram.empty()) << "the ULP histogram of an FP32 output";
  EXPECT_EQ(r.result.failed_case, "large/20260301");
}

TEST(ContractAnalysis, AFailingCaseIsOneFindingNamingTheCaseAndEverySeedItFailsUnder) {
  RunAnalysis a = analyzeRun(contractRecord("contract_large_fails"));
  // exp overflows to inf without the max subtraction: out of tolerance (GOLD001) and NaN (GOLD003),
  // once for the case, not once per seed.
  ASSERT_EQ(a.diagnostics.size(), 2u) << contractFindings(a);
  EXPECT_EQ(a.diagnostics[1].rule, "GOLD003") << contractFindings(a);
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_EQ(d.rule, "GOLD001") << contractFindings(a);
  EXPECT_TRUE(mentions(d.message, "in case large/20260301")) << d.message;
  ASSERT_FALSE(d.notes.empty());
  EXPECT_TRUE(mentions(d.notes.back().message, "seeds 20260301, 7 and 1234")) << d.notes.back().message;
  EXPECT_EQ(a.run.status, "failed");
  EXPECT_TRUE(mentions(a.run.detail, "3 of 6 contract runs pass on a2a3sim")) << a.run.detail;
  EXPECT_EQ(a.run.cases.size(), 6u);
}

TEST(ContractAnalysis, AConstantOutputIsReportedAsIgnoringItsInputsAndAsConstant) {
  RunAnalysis a = analyzeRun(contractRecord("contract_constant"));
  std::string text = contractFindings(a);
  EXPECT_TRUE(mentions(text, "GOLD020: output 'out' of row_softmax is the same, bit for bit, under cases base/"))
      << text;
  EXPECT_TRUE(mentions(text, "GOLD022: output 'out' of row_softmax holds one value in every element")) << text;
  EXPECT_EQ(a.run.status, "failed");
}

TEST(ContractAnalysis, AnOutputCopiedFromAnInputNamesTheInput) {
  RunAnalysis a = analyzeRun(contractRecord("contract_copies_input"));
  std::string text = contractFindings(a);
  EXPECT_TRUE(mentions(text, "GOLD021: output 'out' of row_softmax equals input 'x' bit for bit")) << text;
  EXPECT_EQ(a.run.status, "failed");
}

TEST(ContractAnalysis, AWriteOutsideTheOutputFailsARunWhoseCasesAllPass) {
  RunRecord r = contractRecord("contract_overrun");
  for (const GoldenCase& c : r.result.cases) EXPECT_TRUE(c.passed) << c.label();
  RunAnalysis a = analyzeRun(r);
  ASSERT_EQ(a.diagnostics.size(), 1u) << contractFindings(a);
  EXPECT_EQ(a.diagnostics[0].rule, "GOLD023");
  EXPECT_TRUE(mentions(a.diagnostics[0].message, "wrote outside tensor 'out' on a2a3sim: 12 bytes changed in the "
                                                 "guard zone after it, the first 0 bytes from its end"))
      << a.diagnostics[0].message;
  EXPECT_EQ(a.run.status, "failed");
  EXPECT_EQ(a.run.rule, "GOLD023");
}

TEST(ContractAnalysis, TheTableHasACaseColumnAndTheJsonEveryCase) {
  RunAnalysis a = analyzeRun(contractRecord("contract_large_fails"));
  std::string table = renderGoldenTable({a.run});
  EXPECT_TRUE(mentions(table, "case")) << table;
  EXPECT_TRUE(mentions(table, "large/1234")) << table;
  EXPECT_TRUE(mentions(table, "cosine")) << table;
  Report report;
  report.golden.push_back(a.run);
  nlohmann::json j = reportToJson(report, EmitOptions{});
  const nlohmann::json& c = j["golden"][0]["contract"];
  ASSERT_TRUE(c.is_object()) << j["golden"][0].dump();
  EXPECT_EQ(c["cases"].size(), 6u);
  EXPECT_EQ(c["failed_case"], "large/20260301");
  EXPECT_EQ(c["cases"][0]["outputs"][0]["case"], "base/20260301");
  EXPECT_EQ(c["cases"][0]["outputs"][0]["comparator"], "allclose");
}

TEST(ContractAnalysis, ARealContractRunOnTheSimulatorPassesEveryCaseWithItsFigures) {
  // projects/row_softmax on a2a3sim: 4 cases x 3 seeds, each output within a few FP32 ULP of torch.
  RunRecord r = contractRecord("real_sim_contract_row_softmax");
  ASSERT_EQ(r.result.cases.size(), 12u);
  RunAnalysis a = analyzeRun(r);
  EXPECT_TRUE(a.diagnostics.empty()) << contractFindings(a);
  EXPECT_EQ(a.run.status, "passed");
  EXPECT_TRUE(mentions(a.run.detail, "12 of 12 contract runs pass on a2a3sim")) << a.run.detail;
  EXPECT_EQ(r.result.guard_mode, "host_view");
  for (const GoldenCase& c : r.result.cases) {
    ASSERT_EQ(c.outputs.size(), 1u) << c.label();
    const GoldenOutput& o = c.outputs[0];
    EXPECT_EQ(o.elements, 1024 * 256) << c.label();
    ASSERT_TRUE(o.cosine) << c.label();
    EXPECT_GT(*o.cosine, 0.999999) << c.label();
    std::int64_t counted = 0;
    for (const auto& [bucket, n] : o.ulp_histogram) counted += n;
    EXPECT_EQ(counted, o.elements) << c.label() << ": the ULP histogram counts every element";
  }
  // Each case and seed drew its own inputs: the figures differ between seeds and between value ranges.
  ASSERT_TRUE(r.result.cases[0].outputs[0].mean_abs_err && r.result.cases[1].outputs[0].mean_abs_err);
  EXPECT_NE(*r.result.cases[0].outputs[0].mean_abs_err, *r.result.cases[1].outputs[0].mean_abs_err);
  EXPECT_LT(*r.result.cases[3].outputs[0].max_abs_err, *r.result.cases[0].outputs[0].max_abs_err)
      << "logits x100 give near one-hot rows, whose errors are smaller";
}

TEST(ContractAnalysis, AColumnTileOfUnalignedRowsIsThePortsNotTheToolchainsGOLD012) {
  // Real: a [4, 1] FP32 column (16 bytes) stops the simulator's kernel build on pto-isa's static_assert.
  RunAnalysis a = analyzeRun(contractRecord("real_sim_column_rows"));
  ASSERT_EQ(a.diagnostics.size(), 1u) << contractFindings(a);
  EXPECT_EQ(a.diagnostics[0].rule, "GOLD012");
  EXPECT_TRUE(mentions(a.diagnostics[0].message, "static assertion failed")) << a.diagnostics[0].message;
  EXPECT_TRUE(mentions(a.diagnostics[0].hint, "DSL111")) << a.diagnostics[0].hint;
  EXPECT_FALSE(mentions(a.diagnostics[0].hint, "ptoas matches the version")) << a.diagnostics[0].hint;
}

TEST(ContractAnalysis, ARunWithoutAContractHasNoContractInItsJson) {
  RunRecord r = contractRecord("pass");
  EXPECT_FALSE(r.result.contract);
  RunAnalysis a = analyzeRun(r);
  Report report;
  report.golden.push_back(a.run);
  nlohmann::json j = reportToJson(report, EmitOptions{});
  EXPECT_TRUE(j["golden"][0]["contract"].is_null());
}

TEST(ContractAnalysis, GamedOutputsAreFoundOnRealSimulatorRuns) {
  // Real a2a3sim runs (tests/fixtures/run/README.md): a kernel storing a constant tile, and one copying its
  // input, each under 3 seeds.
  std::string constant, copy;
  for (const Diagnostic& d : analyzeRun(contractRecord("real_sim_gamed_constant_out")).diagnostics) constant += d.rule + " ";
  for (const Diagnostic& d : analyzeRun(contractRecord("real_sim_gamed_copy_out")).diagnostics) copy += d.rule + " ";
  EXPECT_TRUE(mentions(constant, "GOLD020")) << constant;
  EXPECT_TRUE(mentions(constant, "GOLD022")) << constant;
  EXPECT_FALSE(mentions(constant, "GOLD021")) << constant;
  EXPECT_TRUE(mentions(copy, "GOLD021")) << copy;
  EXPECT_FALSE(mentions(copy, "GOLD022")) << copy;
  EXPECT_TRUE(mentions(copy, "GOLD025")) << "its IR copies too: a port bug, not the simulator's";
}

}  // namespace
}  // namespace portcheck

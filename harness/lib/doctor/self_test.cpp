#include "doctor/self_test.h"

#include <algorithm>
#include <cstdio>

#include "golden/run_analysis.h"
#include "golden/run_driver.h"
#include "golden/run_text.h"

namespace portcheck::doctor {

namespace fs = std::filesystem;

const std::vector<SelfTestProgram>& selfTestPrograms() {
  static const std::vector<SelfTestProgram> kPrograms = {
      {"vector_fp32", "vector, FP32"},
      {"vector_bf16", "vector, BF16 in and out"},
      {"vector_int8", "vector, INT8 quantise and dequantise"},
      {"vector_carried_column", "vector, a [64, 1] column carried across loop iterations (a running max)"},
      {"vector_recip_precise", "vector, precise reciprocal (pl.recip(..., high_precision=True))"},
      {"cube_fp32", "cube, FP32 matmul"},
      {"cube_bf16", "cube, BF16 x BF16 -> FP32 matmul"},
      {"mixed_bf16", "mixed cube+vector scope (TPUSH/TPOP), BF16"},
      {"vector_math_fp32", "vector, FP32 math: exp, sqrt, rsqrt, recip, div, row and column expands"},
      {"vector_pad_fp32", "vector, masks and pads: set_validshape, fillpad (min, zero), tri"},
      {"cube_acc_fp32", "cube, matmul_acc over K blocks with a transposed operand"},
      {"cube_chain_bf16", "cube, pipelined K loop, Acc -> BF16 L1 (tile.assemble), chained matmul"},
  };
  return kPrograms;
}

namespace {

std::string figures(const GoldenOutput& o) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s: %lld of %lld elements out of tolerance (%.1f %%)", o.name.c_str(),
                static_cast<long long>(o.mismatches), static_cast<long long>(o.elements), 100.0 * o.mismatch_share);
  std::string text = buf;
  if (o.never_written) text += ", never written";
  if (o.max_abs_err) {
    std::snprintf(buf, sizeof buf, ", max abs error %.3g", *o.max_abs_err);
    text += buf;
  }
  return text;
}

// A failure in one line: the compiler's `error:` clause when the message has one, else its first line.
std::string oneLine(const std::string& message) {
  std::string clause = compilerErrorClause(message);
  return clause.empty() ? message.substr(0, message.find('\n')) : clause;
}

SelfTestCase judgeRun(const SelfTestProgram& p, const RunAnalysis& a) {
  SelfTestCase c{p.program, p.kind, "pass", "", "", 0};
  if (a.run.status == "passed") return c;
  c.verdict = a.run.status == "failed" ? "wrong" : "failed";
  c.rule = a.run.rule;
  if (c.verdict == "wrong") {
    for (const GoldenOutput& o : a.run.outputs)
      if (!o.passed) c.detail += (c.detail.empty() ? "" : "; ") + figures(o);
    if (!a.diagnostics.empty() && c.rule.empty()) c.rule = a.diagnostics.front().rule;
    return c;
  }
  c.detail = oneLine(a.diagnostics.empty() ? a.run.detail : a.diagnostics.front().message);
  if (c.rule.empty() && !a.diagnostics.empty()) c.rule = a.diagnostics.front().rule;
  return c;
}

}  // namespace

std::vector<SelfTestCase> runSelfTest(const DriverSettings& settings, Platform platform) {
  std::vector<SelfTestCase> cases;
  fs::path dir = settings.adapter_script.parent_path() / "selftest";
  for (const SelfTestProgram& p : selfTestPrograms()) {
    CompileTarget target;
    target.name = std::string("doctor-") + p.program;
    target.program_file = dir / (std::string(p.program) + ".py");
    target.source_root = dir;
    target.source_root_display = "<self-test>";
    target.display_file = "<self-test>/" + std::string(p.program) + ".py";
    target.tree_root = dir;
    RunRecord record = runGoldenProcess(target, platform, settings);
    cases.push_back(judgeRun(p, analyzeRun(record)));
    cases.back().seconds = record.seconds;
  }
  return cases;
}

}  // namespace portcheck::doctor

// The run stage's classification and diagnostics on recorded adapter results
// (tests/fixtures/run/results/): every comparison outcome and every failure class.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "golden/run_analysis.h"
#include "core/text.h"
#include "golden/run_text.h"
#include "golden/runtime_stall.h"
#include "golden/static_causes.h"
#include "lint/python_unit_support.h"
#include "output/golden_table.h"
#include "output/json_model.h"
#include "rules/catalogue.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

// A RunRecord as the driver builds it for projects/row_softmax in a workspace at /ws, from a
// recorded result with its placeholders replaced by that workspace's paths.
RunRecord recorded(const std::string& name) {
  RunRecord r;
  r.project = "row_softmax";
  r.source_root = "/ws/projects/row_softmax/pypto_src";
  r.source_root_display = "projects/row_softmax/pypto_src";
  r.display_file = "projects/row_softmax/pypto_src/golden.py";
  r.platform = "a2a3sim";
  r.out_dir = "/ws/.port-check-cache/run/row_softmax-0123456789/a2a3/out";
  r.out_dir_display = ".port-check-cache/run/row_softmax-0123456789/a2a3/out";
  r.timeout = std::chrono::seconds(600);
  r.result_file_exists = true;
  r.path_map = {{"/ws/projects/row_softmax/pypto_src/", "projects/row_softmax/pypto_src/"},
                {r.out_dir.string() + "/", r.out_dir_display + "/"},
                {"/ws/pypto/", "<pypto>/"}};
  std::string text = test::readFile(test::fixturesDir() + "/run/results/" + name + ".json");
  EXPECT_FALSE(text.empty()) << name;
  auto replace = [&](const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  replace("<port>", r.source_root.string());
  replace("<out>", r.out_dir.string());
  replace("<pypto>", "/ws/pypto");
  std::string error;
  EXPECT_TRUE(parseRunResult(text, r.result, error)) << name << ": " << error;
  return r;
}

std::vector<std::string> rules(const RunAnalysis& a) {
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics) out.push_back(d.rule);
  return out;
}

std::string describe(const RunAnalysis& a) {
  std::string s;
  for (const Diagnostic& d : a.diagnostics) {
    s += d.rule + " " + d.file + ":" + std::to_string(d.line) + ": " + d.message + "\n";
    for (const DiagnosticNote& n : d.notes) s += "  note: " + n.message + "\n";
  }
  return s;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(RunAnalysis, ACorrectPortPassesWithoutFindings) {
  RunAnalysis a = analyzeRun(recorded("pass"));
  EXPECT_TRUE(a.diagnostics.empty()) << describe(a);
  EXPECT_EQ(a.run.status, "passed");
  EXPECT_EQ(a.run.rule, "");
  ASSERT_EQ(a.run.outputs.size(), 1u);
  EXPECT_TRUE(a.run.outputs[0].passed);
  EXPECT_EQ(a.run.outputs[0].mismatches, 0);
  EXPECT_EQ(a.run.outputs[0].elements, 256 * 128);
  EXPECT_EQ(a.run.seed, 0);
  EXPECT_DOUBLE_EQ(a.run.atol, 1e-6);
  EXPECT_EQ(a.run.tolerance_source, "golden.py");
  EXPECT_TRUE(has(a.run.detail, "1 of 1 output match the golden on a2a3sim")) << a.run.detail;
}

TEST(RunAnalysis, ARealBf16RunOnTheSimulatorPasses) {
  // doctor's vector_bf16 self-test on a2a3sim (PyPTO e2d0f78, ptoas 0.27, clang++-19 with std::bfloat16_t).
  RunAnalysis a = analyzeRun(recorded("real_sim_bf16_pass"));
  EXPECT_TRUE(a.diagnostics.empty()) << describe(a);
  EXPECT_EQ(a.run.status, "passed");
  ASSERT_EQ(a.run.outputs.size(), 1u);
  EXPECT_EQ(a.run.outputs[0].dtype, "bfloat16");
  EXPECT_EQ(a.run.outputs[0].elements, 64 * 128);
  EXPECT_EQ(a.run.outputs[0].max_abs_err, 0.0);
}

TEST(RunAnalysis, RealSimEachOutputIsJudgedByItsOwnTolerances) {
  // projects/lightning_indexer_prolog on a5sim: INT8 values within one step, scales within 2^-8 relative.
  RunAnalysis a = analyzeRun(recorded("real_sim_tolerances"));
  EXPECT_TRUE(a.diagnostics.empty()) << describe(a);
  EXPECT_EQ(a.run.status, "passed");
  ASSERT_EQ(a.run.outputs.size(), 4u);
  const GoldenOutput& q_scale = a.run.outputs[1];
  EXPECT_EQ(q_scale.name, "q_scale");
  EXPECT_EQ(q_scale.tolerance_source, "TOLERANCES");
  EXPECT_DOUBLE_EQ(q_scale.rtol, 0.00390625);
  EXPECT_DOUBLE_EQ(q_scale.atol, 0.0);
  ASSERT_TRUE(q_scale.max_rel_err);
  EXPECT_GT(*q_scale.max_rel_err, 1e-5) << "the flip the tolerance is sized for";
  EXPECT_DOUBLE_EQ(a.run.outputs[0].atol, 1.0);
  EXPECT_EQ(a.run.tolerance_source, "golden.py");  // RTOL / ATOL, which no output here uses
  Report report;
  report.golden.push_back(a.run);
  nlohmann::json j = reportToJson(report, EmitOptions{});
  EXPECT_EQ(j["golden"][0]["outputs"][1]["tolerance_source"], "TOLERANCES");
  EXPECT_EQ(j["golden"][0]["outputs"][1]["rtol"], 0.00390625);
}

TEST(RunAnalysis, APtoasRejectionInTheRunsCompileNamesPtoassOwnError) {
  // A real mixed cube+vector kernel rejected by ptoas 0.27: PyPTO prints the reason in a wrapped table.
  RunAnalysis a = analyzeRun(recorded("real_sim_mixed_ptoas_rejects"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD015"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "compiling it for the run failed")) << a.diagnostics[0].message;
  EXPECT_TRUE(has(a.diagnostics[0].message, "error: custom op 'pto.aic_initialize_pipe' expected 'nosplit'"))
      << a.diagnostics[0].message;
  EXPECT_EQ(a.run.status, "error");
}

TEST(RunAnalysis, TheNanobind3TrapInTheRunsCompileIsTheToolchainsAndPointsAtDoctor) {
  // The recorded runtime error, turned into the failure PyPTO built against nanobind 3 gives (the shared
  // reference's wording, §8.2): its parser's ParserSyntaxError caused by ir.TileView()'s TypeError.
  RunRecord r = recorded("run_error");
  r.result.status = "compile_error";
  r.result.phase = "compile";
  r.result.exception_type = "pypto.language.parser.diagnostics.exceptions.ParserSyntaxError";
  r.result.exception_message = "Failed to parse function 'row_softmax'";
  r.result.traceback =
      "TypeError: __init__(): incompatible function arguments. The following argument types are supported:\n"
      "Invoked with types: pypto.pypto_core.ir.TileView\n";
  RunAnalysis a = analyzeRun(r);
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD015"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].hint, "'nanobind>=2,<3'")) << a.diagnostics[0].hint;
  ASSERT_FALSE(a.diagnostics[0].notes.empty());
  EXPECT_TRUE(has(a.diagnostics[0].notes.back().message, "port-check doctor")) << describe(a);
  // The recorded failure itself keeps its own hint.
  EXPECT_FALSE(has(analyzeRun(recorded("run_error")).diagnostics[0].hint, "nanobind"));
}

// Real simulator runs (a2a3sim, PyPTO e2d0f78, ptoas 0.27) of projects/row_softmax (1024 x 256 FP32,
// logits scaled by 8) with one deliberate bug each: tests/fixtures/run/README.md.
TEST(RunAnalysis, RealSimAMissingScaleShowsAsRelativeErrorOneHalfOnTheRowsThatMatter) {
  RunAnalysis a = analyzeRun(recorded("real_sim_missing_scale"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD001"}) << describe(a);
  const GoldenOutput& o = a.run.outputs.at(0);
  EXPECT_EQ(o.elements, 1024 * 256);
  EXPECT_EQ(o.mismatches, 32112);  // the probabilities above atol; the rest are ~0 either way
  ASSERT_TRUE(o.max_rel_err.has_value());
  EXPECT_NEAR(*o.max_rel_err, 0.5, 1e-5);
  EXPECT_FALSE(o.never_written);
}

TEST(RunAnalysis, RealSimAWrongReductionAxisIsLargeErrorsOnAThirdOfTheElements) {
  RunAnalysis a = analyzeRun(recorded("real_sim_wrong_axis"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD001"}) << describe(a);
  const GoldenOutput& o = a.run.outputs.at(0);
  EXPECT_EQ(o.mismatches, 89960);
  EXPECT_GT(*o.max_rel_err, 1e6);  // column sums instead of row sums: off by orders of magnitude
  EXPECT_TRUE(has(a.diagnostics[0].message, "89960 of 262144 elements (34.3%)")) << a.diagnostics[0].message;
}

// A golden mismatch beside a lint finding that predicts wrong numbers (DSL119 here, from the rule's bad
// fixture) carries a note pointing at it; a finding of another rule adds none.
// A real hang (tests/fixtures/run/real_ports/two_accumulators on a2a3sim, --timeout 60): a mixed
// kernel pops two accumulators before freeing either; the simulator's watchdog classifies the stall
// and the process never exits. GOLD013 names the class and where the whole output is kept.
TEST(RunAnalysis, ARealHangNamesTheWatchdogsStallClass) {
  const std::string log = test::readFile(test::fixturesDir() + "/run/results/real_sim_timeout.log");
  std::optional<RuntimeStall> stall = parseRuntimeStall(log);
  ASSERT_TRUE(stall);
  EXPECT_EQ(stall->sub_class, "S1:running-stalled");
  EXPECT_EQ(stall->completed, 1);
  EXPECT_EQ(stall->total, 2);
  EXPECT_EQ(stall->running, 1);
  EXPECT_EQ(stall->ready, 0);
  EXPECT_EQ(stall->waiting, 0);
  EXPECT_TRUE(stall->orch_done);
  EXPECT_EQ(stall->stuck_core, 10);

  RunRecord r = recorded("pass");
  r.result = RunResult{};
  r.result_file_exists = false;
  r.timed_out = true;
  r.signal = 15;
  r.timeout = std::chrono::seconds(60);
  r.log = log;
  r.log_file_display = ".port-check-cache/run/row_softmax-0123456789/a2a3/run.log";
  RunAnalysis a = analyzeRun(r);
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD013"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "did not finish within 60 s")) << a.diagnostics[0].message;
  EXPECT_TRUE(has(describe(a), "watchdog reported S1:running-stalled: a task is on a core and never completes"))
      << describe(a);
  EXPECT_TRUE(has(describe(a), "1 of 2 tasks completed, 1 running, 0 ready, 0 waiting (stuck core 10)")) << describe(a);
  EXPECT_TRUE(has(describe(a), "Emergency shutdown: 1 cores did not acknowledge exit")) << describe(a);
  EXPECT_TRUE(has(describe(a), "the run's whole output: .port-check-cache/run/row_softmax-0123456789/a2a3/run.log"))
      << describe(a);
}

TEST(RunAnalysis, OnlyAWatchdogLineIsAStall) {
  EXPECT_FALSE(parseRuntimeStall("[ERROR] run: Scheduler failed with rc=-100\n"));
  std::optional<RuntimeStall> s = parseRuntimeStall(
      "[ERROR] x: [STALL thread=0 idle_iterations=9] TIMEOUT_EXIT after_idle_iterations=9 "
      "sub_class=S4:dependency-deadlock completed=3/7 running=0 ready=0 waiting=4 orch_done=1 stuck_task_id=-1 "
      "stuck_core=-1\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->sub_class, "S4:dependency-deadlock");
  EXPECT_EQ(s->waiting, 4);
  EXPECT_FALSE(s->stuck_core);
  EXPECT_TRUE(has(describeRuntimeStall(*s), "a dependency cycle or a task that reads a tensor no task writes"));
}

// A real crash (tests/fixtures/run/real_ports/bad_offset on a2a3sim): a load whose valid width comes
// from an input tensor at run time, far past the tile; the simulator dies with SIGSEGV before the
// adapter writes its result.
TEST(RunAnalysis, ARealSimulatorCrashIsGold014WithTheLogKept) {
  RunRecord r = recorded("pass");
  r.result = RunResult{};
  r.result_file_exists = false;
  r.exit_code = -1;
  r.signal = 11;
  r.log = test::readFile(test::fixturesDir() + "/run/results/real_sim_crash.log");
  r.log_file_display = ".port-check-cache/run/row_softmax-0123456789/a2a3/run.log";
  RunAnalysis a = analyzeRun(r);
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD014"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "killed by SIGSEGV")) << a.diagnostics[0].message;
  EXPECT_TRUE(has(describe(a), "name=chip.run.bind")) << describe(a);  // it died after binding the arguments
  EXPECT_TRUE(has(describe(a), "the run's whole output: .port-check-cache/run/row_softmax-0123456789/a2a3/run.log"))
      << describe(a);
}

TEST(RunAnalysis, AMismatchNamesTheLintFindingThatPredictsIt) {
  RunAnalysis a = analyzeRun(recorded("real_sim_wrong_axis"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD001"}) << describe(a);
  std::vector<Diagnostic> lint = test::lintPythonText(
      "DSL119_bad.py", test::readFile(test::fixturesDir() + "/dsl_rules/DSL119_bad.py"));
  std::size_t predicting = 0;
  for (const Diagnostic& d : lint) predicting += d.rule == "DSL119";
  ASSERT_GT(predicting, 0u);
  // A subscript-sugar warning (DSL112): style, not a cause of wrong numbers.
  lint.push_back(makeDiagnostic("DSL112", "k.py", 3, 5, "tensor 'x' read through subscript sugar", "pl.load"));
  const std::size_t before = a.diagnostics.at(0).notes.size();
  noteStaticCauses(a.diagnostics, lint);
  const Diagnostic& gold = a.diagnostics.at(0);
  ASSERT_EQ(gold.notes.size(), before + predicting);
  for (std::size_t i = before; i < gold.notes.size(); ++i) {
    EXPECT_EQ(gold.notes[i].file, "DSL119_bad.py");
    EXPECT_GT(gold.notes[i].line, 0);
    EXPECT_TRUE(has(gold.notes[i].message, "[DSL119] found by the lint")) << gold.notes[i].message;
  }
}

TEST(RunAnalysis, RealSimATailNotWrittenHoldsWhateverTheDeviceBufferHeldNotZeros) {
  // The last 32-row block is never stored: the simulator hands back its uninitialised GM buffer, so the
  // tail is not all zero (no GOLD002) and the largest error is garbage of FP32's range.
  RunAnalysis a = analyzeRun(recorded("real_sim_tail_not_written"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD001"}) << describe(a);
  const GoldenOutput& o = a.run.outputs.at(0);
  EXPECT_FALSE(o.never_written);
  EXPECT_EQ(o.first_mismatch, (std::vector<std::int64_t>{992, 1}));  // row 992 = block 31 of 32
  EXPECT_LE(o.mismatches, 32 * 256);
  EXPECT_GT(*o.max_abs_err, 1e30);
}

TEST(RunAnalysis, RealSimAMissingNormalisationStoresTheExponentials) {
  RunAnalysis a = analyzeRun(recorded("real_sim_no_normalise"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD001"}) << describe(a);
  const GoldenOutput& o = a.run.outputs.at(0);
  EXPECT_EQ(o.mismatches, 29592);
  EXPECT_GT(*o.max_rel_err, 1.0);
}

TEST(RunAnalysis, RealSimGcc12AsTheKernelCompilerIsAToolchainErrorWithItsLine) {
  // g++ 12 on PATH as g++-15: the runtime's kernel build fails on the pto-isa CPU headers.
  RunAnalysis a = analyzeRun(recorded("real_sim_gcc12"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD011"}) << describe(a);
  EXPECT_EQ(a.diagnostics[0].severity, Severity::Error);
  EXPECT_TRUE(has(a.diagnostics[0].message, "too old for the pto-isa CPU headers")) << a.diagnostics[0].message;
  ASSERT_FALSE(a.diagnostics[0].notes.empty());
  EXPECT_TRUE(has(a.diagnostics[0].notes[0].message, "TReduceIdx.hpp:27:23: error: static assertion failed"))
      << a.diagnostics[0].notes[0].message;
  EXPECT_EQ(a.run.failure, "kernel-toolchain-missing");
}

TEST(RunAnalysis, AWrongReductionAxisNamesTheOutputWithItsErrorFigures) {
  RunAnalysis a = analyzeRun(recorded("wrong_axis"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD001"}) << describe(a);
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_EQ(d.file, "projects/row_softmax/pypto_src/orchestration.py");
  EXPECT_EQ(d.line, 9);  // the `out: pl.Out[...]` parameter of the entry
  EXPECT_EQ(d.source, Stage::Golden);
  EXPECT_TRUE(has(d.message, "output 'out' of row_softmax differs from the golden on a2a3sim")) << d.message;
  EXPECT_TRUE(has(d.message, "23878 of 32768 elements (72.9%) out of tolerance (rtol 1e-05, atol 1e-06)")) << d.message;
  EXPECT_TRUE(has(d.message, "max abs err 0.8456, max rel err 346")) << d.message;
  EXPECT_TRUE(has(d.message, "first mismatch at [0, 0]: actual 7.667439660963282e-08, expected 1.9196581888536457e-06"))
      << d.message;
  ASSERT_FALSE(d.notes.empty());
  EXPECT_EQ(d.notes[0].message, "largest error at [35, 120]");
  EXPECT_EQ(a.run.status, "failed");
  EXPECT_EQ(a.run.rule, "GOLD001");
}

TEST(RunAnalysis, AMissingScaleShowsAsARelativeErrorOfOneHalf) {
  RunAnalysis a = analyzeRun(recorded("missing_scale"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD001"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "max rel err 0.5")) << a.diagnostics[0].message;
  ASSERT_TRUE(a.run.outputs[0].max_rel_err);
  EXPECT_NEAR(*a.run.outputs[0].max_rel_err, 0.5, 1e-6);
}

TEST(RunAnalysis, AnOutputNeverWrittenIsItsOwnFindingNotAMismatch) {
  RunAnalysis a = analyzeRun(recorded("never_written"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD002"}) << describe(a);
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_TRUE(has(d.message, "output 'out' of row_softmax was never written on a2a3sim: all 32768 elements are zero"))
      << d.message;
  EXPECT_TRUE(has(d.hint, "pl.Out")) << d.hint;
  EXPECT_EQ(d.line, 9);
  EXPECT_TRUE(a.run.outputs[0].never_written);
}

TEST(RunAnalysis, NanAndInfAreCountedBesideTheMismatch) {
  RunAnalysis a = analyzeRun(recorded("nan_inf"));
  ASSERT_EQ(rules(a), (std::vector<std::string>{"GOLD001", "GOLD003"})) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "3 of 32768 elements (<0.1%)")) << a.diagnostics[0].message;
  EXPECT_TRUE(has(a.diagnostics[0].message, "first mismatch at [3, 17]: actual nan")) << a.diagnostics[0].message;
  EXPECT_TRUE(has(a.diagnostics[1].message, "holds 2 NaN and 1 Inf on a2a3sim where the golden has 0 NaN and 0 Inf"))
      << a.diagnostics[1].message;
  EXPECT_TRUE(has(a.diagnostics[1].message, "first at [3, 17]")) << a.diagnostics[1].message;
  // Few elements: the note points at boundaries rather than at the algorithm.
  EXPECT_TRUE(has(describe(a), "few elements differ")) << describe(a);
}

TEST(RunAnalysis, AShapeMismatchIsReportedWithBothShapes) {
  RunAnalysis a = analyzeRun(recorded("shape_mismatch"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD004"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "has shape [256, 128] but the golden's is [256]")) << a.diagnostics[0].message;
}

TEST(RunAnalysis, OnlyTheFailingOutputOfSeveralIsReported) {
  RunAnalysis a = analyzeRun(recorded("two_outputs_one_fails"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD001"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "output 'row_max'")) << a.diagnostics[0].message;
  EXPECT_EQ(a.diagnostics[0].line, 10);
  ASSERT_EQ(a.run.outputs.size(), 2u);
  EXPECT_TRUE(a.run.outputs[0].passed);
  EXPECT_FALSE(a.run.outputs[1].passed);
  EXPECT_TRUE(has(a.run.detail, "1 of 2 outputs match")) << a.run.detail;
}

// Every failure class: its own rule, its own failure name, a message that says what is wrong.
struct FailureCase {
  const char* fixture;
  const char* rule;
  const char* failure;
  const char* says;
};

const FailureCase kFailures[] = {
    {"no_simpler", "GOLD010", "runtime-not-installed", "the PyPTO runtime (simpler, simpler_setup) is not importable"},
    {"old_torch", "GOLD010", "runtime-not-installed", "torch is older than 2.3 (no torch.uint16/uint32)"},
    {"real_no_simpler", "GOLD010", "runtime-not-installed", "the PyPTO runtime (simpler, simpler_setup) is not importable"},
    {"real_no_task_interface", "GOLD010", "runtime-not-installed", "native module _task_interface is not built"},
    {"real_ptoas_missing", "GOLD011", "kernel-toolchain-missing", "ptoas was not found (PTOAS_ROOT, PATH)"},
    {"no_cloudpickle", "GOLD010", "runtime-not-installed", "cloudpickle is not installed"},
    {"toolchain_error", "GOLD010", "runtime-not-installed", "PyPTO does not import"},
    {"no_gxx15", "GOLD011", "kernel-toolchain-missing", "the kernel compiler g++-15 (C++23) was not found"},
    {"gcc12", "GOLD011", "kernel-toolchain-missing", "too old for the pto-isa CPU headers"},
    {"ptoas_missing", "GOLD011", "kernel-toolchain-missing", "ptoas was not found"},
    {"kernel_error", "GOLD012", "kernel-compile-failed", "'TROWMAXX' was not declared in this scope"},
    {"runtime_deadlock", "GOLD013", "run-timeout", "Dependency Pool Deadlock Detected"},
    {"golden_raised", "GOLD006", "golden-raised", "golden.py raised in compute_golden() while computing the reference: KeyError: 'y'"},
    {"input_error", "GOLD006", "golden-raised", "golden.py raised in generate_inputs() while making the inputs: RuntimeError"},
    {"contract_error", "GOLD005", "golden-contract", "__outputs__ names 'y', which the inputs do not have"},
    {"run_error", "GOLD015", "run-failed", "the runtime raised: ValueError: argument 1 ('out')"},
};

TEST(RunAnalysis, EveryFailureClassHasItsOwnRuleAndMessage) {
  for (const FailureCase& c : kFailures) {
    SCOPED_TRACE(c.fixture);
    RunAnalysis a = analyzeRun(recorded(c.fixture));
    ASSERT_EQ(rules(a), std::vector<std::string>{c.rule}) << describe(a);
    EXPECT_TRUE(has(a.diagnostics[0].message, c.says)) << a.diagnostics[0].message;
    EXPECT_FALSE(has(a.diagnostics[0].message, "/ws/")) << "absolute path leaked: " << a.diagnostics[0].message;
    EXPECT_EQ(a.run.status, "error");
    EXPECT_EQ(a.run.failure, c.failure);
    EXPECT_EQ(a.run.rule, c.rule);
    EXPECT_TRUE(a.run.outputs.empty());
  }
}

TEST(RunAnalysis, EnvironmentFailuresAreToolErrorsAndPortFailuresAreNot) {
  EXPECT_EQ(analyzeRun(recorded("old_torch")).diagnostics[0].source, Stage::Tool);
  EXPECT_EQ(analyzeRun(recorded("gcc12")).diagnostics[0].source, Stage::Tool);
  EXPECT_EQ(analyzeRun(recorded("kernel_error")).diagnostics[0].source, Stage::Runtime);
  EXPECT_EQ(analyzeRun(recorded("golden_raised")).diagnostics[0].source, Stage::Golden);
}

TEST(RunAnalysis, AKernelCompileErrorPointsAtTheGeneratedFileInTheRunFolder) {
  RunAnalysis a = analyzeRun(recorded("kernel_error"));
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD012"});
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_EQ(d.file, ".port-check-cache/run/row_softmax-0123456789/a2a3/out/kernels/aiv/row_softmax_incore_0.cpp");
  EXPECT_EQ(d.line, 42);
  ASSERT_FALSE(d.notes.empty());
  EXPECT_TRUE(has(d.notes[0].message, "compiler output:\nSimKernel compilation failed with exit code 1")) << d.notes[0].message;
}

TEST(RunAnalysis, TheGoldenRaisingPointsAtTheGoldenLine) {
  RunAnalysis a = analyzeRun(recorded("golden_raised"));
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_EQ(d.file, "projects/row_softmax/pypto_src/golden.py");
  EXPECT_EQ(d.line, 18);
  ASSERT_FALSE(d.notes.empty());
  EXPECT_TRUE(has(d.notes[0].message, "KeyError: 'y'")) << d.notes[0].message;
}

TEST(RunAnalysis, ToolchainFailuresCarryTheCompilerLine) {
  RunAnalysis a = analyzeRun(recorded("gcc12"));
  ASSERT_FALSE(a.diagnostics[0].notes.empty());
  EXPECT_EQ(a.diagnostics[0].notes[0].message,
            "<pypto>/runtime/build/pto-isa/include/pto/cpu/TReduceIdx.hpp:27:23: error: static assertion failed: "
            "Unsupported element cmp.");
}

TEST(RunAnalysis, FailureMessagesDifferBetweenClasses) {
  // Same class, different cause: the messages still differ (what is missing is named).
  std::set<std::string> messages;
  for (const FailureCase& c : kFailures) messages.insert(analyzeRun(recorded(c.fixture)).diagnostics[0].message);
  // real_no_simpler and real_ptoas_missing are the real toolchain's twins of no_simpler and
  // ptoas_missing: same cause, same message.
  EXPECT_EQ(messages.size(), std::size(kFailures) - 2);
}

TEST(RunAnalysis, ATimeoutOrACrashWinsOverWhateverTheResultSays) {
  RunRecord r = recorded("pass");
  r.timed_out = true;
  r.signal = 15;
  r.log = "[sim] orchestrator BLOCKED: ring 0 task window full (10000 spins)\n";
  RunAnalysis a = analyzeRun(r);
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD013"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "did not finish within 600 s")) << a.diagnostics[0].message;
  EXPECT_TRUE(has(describe(a), "BLOCKED")) << describe(a);

  RunRecord crashed = recorded("pass");
  crashed.result = RunResult{};
  crashed.signal = 11;
  a = analyzeRun(crashed);
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD014"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "killed by SIGSEGV")) << a.diagnostics[0].message;
}

TEST(RunAnalysis, AnInterpreterThatCannotStartIsARuntimeProblem) {
  RunRecord r = recorded("pass");
  r.result = RunResult{};
  r.started = false;
  r.spawn_error = "cannot run 'python9': No such file or directory";
  RunAnalysis a = analyzeRun(r);
  ASSERT_EQ(rules(a), std::vector<std::string>{"GOLD010"}) << describe(a);
  EXPECT_TRUE(has(a.diagnostics[0].message, "python9")) << a.diagnostics[0].message;
}

TEST(RunResultParser, RejectsWhatIsNotAResult) {
  RunResult r;
  std::string error;
  EXPECT_FALSE(parseRunResult("{\"status\": \"ok\", \"outputs\": [", r, error));
  EXPECT_TRUE(has(error, "not JSON")) << error;
  EXPECT_FALSE(parseRunResult("[1, 2]", r, error));
  EXPECT_FALSE(parseRunResult("{\"phase\": \"done\"}", r, error));
  EXPECT_FALSE(parseRunResult("{\"status\": \"ok\"}", r, error));
  EXPECT_EQ(error, "status ok without outputs");
  EXPECT_FALSE(parseRunResult("{\"status\": \"ok\", \"outputs\": [{\"passed\": true}]}", r, error));
  EXPECT_TRUE(parseRunResult("{\"status\": \"run_error\", \"seed\": 3}", r, error)) << error;
  EXPECT_EQ(r.seed, 3);
}

TEST(RunReportJson, GoldenEntriesCarryEveryOutputFigureAndNullForNonFinite) {
  Report report;
  RunAnalysis a = analyzeRun(recorded("nan_inf"));
  report.golden.push_back(a.run);
  report.golden.push_back(analyzeRun(recorded("old_torch")).run);
  nlohmann::json j = reportToJson(report, EmitOptions{});
  ASSERT_EQ(j["golden"].size(), 2u);
  const auto& g = j["golden"][0];
  EXPECT_EQ(g["status"], "failed");
  EXPECT_EQ(g["rule"], "GOLD001");
  EXPECT_TRUE(g["failure"].is_null());
  const auto& o = g["outputs"][0];
  EXPECT_EQ(o["name"], "out");
  EXPECT_EQ(o["mismatches"], 3);
  EXPECT_EQ(o["nan"]["actual"], 2);
  EXPECT_EQ(o["inf"]["actual"], 1);
  EXPECT_EQ(o["first_mismatch"]["index"], nlohmann::json::array({3, 17}));
  EXPECT_EQ(o["first_mismatch"]["actual"], "nan");
  EXPECT_EQ(j["golden"][1]["failure"], "runtime-not-installed");
  EXPECT_TRUE(j["golden"][1]["outputs"].empty());
}

TEST(RunReportText, TheGoldenTableHasARowPerOutputAndPerFailedRun) {
  std::vector<GoldenRun> runs = {analyzeRun(recorded("two_outputs_one_fails")).run,
                                 analyzeRun(recorded("gcc12")).run};
  std::string table = renderGoldenTable(runs);
  std::vector<std::string> lines;
  for (std::string_view line : splitLines(table)) lines.emplace_back(line);
  ASSERT_EQ(lines.size(), 5u) << table;  // title, header, two outputs, one failed run
  auto words = [](const std::string& line) {
    std::vector<std::string> w;
    std::istringstream in(line);
    for (std::string word; in >> word;) w.push_back(word);
    return w;
  };
  EXPECT_EQ(words(lines[2]), (std::vector<std::string>{"row_softmax", "a2a3sim", "out", "pass", "0/32768", "(0.0%)",
                                                        "0", "0"}))
      << table;
  EXPECT_EQ(words(lines[3]), (std::vector<std::string>{"row_softmax", "a2a3sim", "row_max", "mismatch", "256/256",
                                                        "(100.0%)", "0.001", "0.000138"}))
      << table;
  EXPECT_TRUE(has(lines[4], "error: kernel-toolchain-missing [GOLD011]")) << table;
  // Columns line up: every row's output column starts where the header's does.
  EXPECT_EQ(lines[2].find(" out "), lines[1].find(" output "));
}

}  // namespace
}  // namespace portcheck

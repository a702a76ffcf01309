#include "golden/run_analysis.h"

#include <map>
#include <utility>

#include "compiler/nanobind_trap_hint.h"
#include "golden/checks/first_wrong_task_check.h"
#include "golden/run_check.h"
#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// "seeds 7 and 1234"
std::string contractSeedList(const std::vector<std::int64_t>& seeds) {
  std::string s = seeds.size() == 1 ? "seed " : "seeds ";
  for (std::size_t i = 0; i < seeds.size(); ++i)
    s += (i == 0 ? "" : i + 1 == seeds.size() ? " and " : ", ") + std::to_string(seeds[i]);
  return s;
}

// A contract's runs (docs/contract.md): one finding per case and output that fails, on its first failing
// seed, with a note naming the other seeds it fails under; a case that produced no comparison; and what
// the checks against gamed goldens saw.
void analyzeContract(const RunRecord& record, RunAnalysis& a) {
  const RunResult& r = record.result;
  GoldenRun& g = a.run;
  g.contract = true;
  g.contract_kind = r.contract_kind;
  g.seeds = r.seeds;
  g.cases = r.cases;
  g.gaming = r.gaming;
  g.outputs = r.outputs;
  g.failed_case = r.failed_case;

  std::map<std::pair<std::string, std::string>, std::vector<std::int64_t>> failing_seeds;
  std::vector<std::pair<const GoldenCase*, const GoldenOutput*>> first;  // in run order
  std::size_t failed_cases = 0;
  for (const GoldenCase& c : r.cases) {
    failed_cases += !c.passed;
    if (!c.passed && c.outputs.empty()) {
      a.diagnostics.push_back(makeDiagnostic("GOLD015", record.display_file, 0, 0,
                                             record.project + ": case " + c.label() + " produced no comparison on " +
                                                 record.platform + " (" + (c.status.empty() ? "failed" : c.status) +
                                                 ")"));
      continue;
    }
    for (const GoldenOutput& o : c.outputs) {
      if (o.passed) continue;
      auto& seeds = failing_seeds[{c.id, o.name}];
      if (seeds.empty()) first.emplace_back(&c, &o);
      seeds.push_back(c.seed);
    }
  }
  for (const auto& [c, o] : first) {
    for (const auto& check : outputChecks()) {
      if (!check->matches(*o)) continue;
      Diagnostic d = check->report(record, *o);
      const auto& seeds = failing_seeds[{c->id, o->name}];
      if (seeds.size() > 1)
        d.notes.push_back({"", 0, 0, "case " + c->id + " fails under " + contractSeedList(seeds) + " (figures of seed " +
                                         std::to_string(c->seed) + ")"});
      a.diagnostics.push_back(std::move(d));
      if (g.rule.empty()) g.rule = std::string(check->ruleId());
    }
  }
  for (const GoldenGamingFinding& f : r.gaming)
    for (const auto& check : gamingChecks())
      if (check->matches(f)) {
        a.diagnostics.push_back(check->report(record, f));
        if (g.rule.empty()) g.rule = std::string(check->ruleId());
      }

  const bool gamed = !r.gaming.empty();
  g.status = failed_cases == 0 && !gamed ? "passed" : "failed";
  g.detail = record.project + ": " + std::to_string(r.cases.size() - failed_cases) + " of " +
             std::to_string(r.cases.size()) + " contract run" + (r.cases.size() == 1 ? "" : "s") +
             " pass on " + record.platform + (gamed ? ", with findings against gaming" : "");
}

// The first wrong task of the first failing case run (GOLD025), and a note on that case's output findings.
void addLocalisation(const RunRecord& record, RunAnalysis& a) {
  const auto& l = record.result.localisation;
  if (!l) return;
  FirstWrongTaskCheck check;
  a.run.localisation = check.displayed(record, *l);
  const std::string summary = check.summary(*l);
  for (Diagnostic& d : a.diagnostics) {
    bool output_finding = d.rule.rfind("GOLD00", 0) == 0;
    if (output_finding && (l->case_label == "default" || d.message.find(l->case_label) != std::string::npos))
      d.notes.push_back({"", 0, 0, summary});
  }
  a.diagnostics.push_back(check.report(record, *l));
}

}  // namespace

RunAnalysis analyzeRun(const RunRecord& record) {
  RunAnalysis a;
  GoldenRun& g = a.run;
  const RunResult& r = record.result;
  g.project = record.project;
  g.platform = record.platform;
  g.seed = r.seed;
  g.rtol = r.rtol;
  g.atol = r.atol;
  g.tolerance_source = r.tolerance_source;
  g.seconds = record.seconds;
  g.out_dir = record.out_dir_display;

  bool compared = r.present && r.status == "ok" && !record.timed_out && !record.cancelled;
  if (!compared) {
    for (const auto& check : runFailureChecks()) {
      if (!check->matches(record)) continue;
      a.diagnostics.push_back(check->report(record));
      g.status = "error";
      g.failure = std::string(check->failureClass());
      g.rule = std::string(check->ruleId());
      g.detail = a.diagnostics.back().message;
      break;
    }
    if (g.status.empty()) {  // unreachable while RunFailedCheck is the catch-all; stays honest if not
      g.status = "error";
      g.failure = "run-failed";
      g.detail = record.project + ": the run produced no comparison";
    }
    // The run's own compile can fail on the nanobind 3 trap too: the toolchain's, not the port's.
    addNanobindTrapHints(a.diagnostics, record.log + "\n" + r.exception_message + "\n" + r.traceback);
    return a;
  }

  if (r.contract && !r.cases.empty()) {
    analyzeContract(record, a);
    addLocalisation(record, a);
    return a;
  }

  g.outputs = r.outputs;
  std::size_t failed = 0;
  for (const GoldenOutput& o : r.outputs) {
    failed += !o.passed;
    for (const auto& check : outputChecks())
      if (check->matches(o)) {
        a.diagnostics.push_back(check->report(record, o));
        if (g.rule.empty()) g.rule = std::string(check->ruleId());
      }
  }
  g.status = failed == 0 ? "passed" : "failed";
  g.detail = record.project + ": " + std::to_string(r.outputs.size() - failed) + " of " +
             std::to_string(r.outputs.size()) + " output" + (r.outputs.size() == 1 ? "" : "s") +
             " match the golden on " + record.platform;
  addLocalisation(record, a);
  return a;
}

}  // namespace portcheck

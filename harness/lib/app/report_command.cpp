// port-check report: SRAM table, advice and the HTML page.
#include <charconv>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "advice/task_graph.h"
#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "clangcheck/kernel_compile.h"
#include "compiler/compile_cache.h"
#include "compiler/compile_stage.h"
#include "cost/schedule_cost.h"
#include "app/assume_option.h"
#include "dsl/assumed_constants.h"
#include "dsl/dsl_model.h"
#include "dsl/library_imports.h"
#include "lint/lint_engine.h"
#include "perf/device_schedule.h"
#include "perf/schedule_row.h"
#include "report/html_report.h"
#include "rules/catalogue.h"
#include "sram/sram_estimator.h"
#include "tune/tune_html.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

// A unit's task graphs (for the page) and the cost of its schedule (for the table), from one model.
struct UnitAnalysis {
  HtmlUnitGraph graph;
  std::optional<ScheduleRow> schedule;
};

UnitAnalysis analyzeUnit(const Workspace& ws, const std::string& name, const std::vector<fs::path>& sources,
                         const Config& config, Platform platform, bool project, const cost::Env& assumed) {
  std::vector<SourceFile> files;
  std::vector<std::string> own;
  for (const fs::path& p : sources) {
    if (!isPythonSource(p)) continue;
    std::string rel = ws.relative(p);
    if (config.excluded(rel)) continue;
    ReadResult r = readSourceFile(p, rel);
    if (!r.file) continue;
    own.push_back(r.file->path);
    files.push_back(std::move(*r.file));
  }
  UnitAnalysis u;
  u.graph.unit = name;
  if (files.empty()) return u;
  if (project)  // as lint does: the pypto-lib blocks the port imports are part of its program
    for (SourceFile& f : dsl::importedLibraryFiles(ws.root, files)) files.push_back(std::move(f));
  // and the modules it imports from disk outside its own files (a loose file's, a stack's layer)
  for (SourceFile& f : outsideImportsOf(ws, files)) files.push_back(std::move(f));
  const dsl::ConstantOverrides assumed_constants(assumed.begin(), assumed.end());
  dsl::ProgramModel model = dsl::buildProgramModelAssuming(files, assumed_constants);
  std::vector<sram::KernelEstimate> all = sram::estimateProgram(model, platform);
  std::vector<sram::KernelEstimate> kernels = sram::firstInstances(all);
  u.graph.graphs = advice::buildTaskGraphs(model, kernels);
  // The port's own files are the run; an imported block's test entry is not (as tune counts it).
  const cost::ScheduleCost cost = cost::scheduleCost(model, all, platform, own, assumed);
  if (cost.kernels.empty() && cost.unknown.empty()) return u;  // nothing dispatched: a library of kernels
  ScheduleRow row;
  row.project = name;
  std::set<std::string> names;
  for (const cost::KernelCost& k : cost.kernels) names.insert(k.kernel);
  row.kernels = static_cast<int>(names.size());
  row.tasks = cost.tasks;
  row.gm_bytes = cost.gm_bytes;
  row.critical_gm_bytes = cost.critical_gm_bytes;
  row.unknown = cost.unknown;
  perf::fillDeviceTime(row, perf::deviceTime(cost, perf::deviceSpec(platform)));
  u.schedule = std::move(row);
  return u;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The compiler's actual figures without compiling: for every program the compile stage would compile,
// the result it would replay (same key: sources, platform, toolchain, settings; imported workspace files
// unchanged) when the compile cache holds one. Rows merge beside the estimates, marked "cache"; a
// missing, stale or unreadable entry only leaves the actual column empty.
void cachedActualsInto(Report& report, const Session& session, const CommonOptions& options,
                       const ReportOptions& report_options, const Targets& targets) {
  std::vector<CompileTarget> list = compileTargets(session.workspace, targets);
  if (list.empty()) return;
  if (!session.toolchain.found) {
    report.run.stages.push_back({"compile cache", StageState::Skipped,
                                 "no actual figures: without a PyPTO toolchain the compile cache key is unknown (" +
                                     session.toolchain.why_not + ")"});
    return;
  }
  CompileOptions compile;
  compile.cache_dir = report_options.cache_dir;
  DriverSettings settings = compileDriverSettings(session, options, compile);
  CompileAnalysisOptions analysis = compileAnalysisOptions(session.config.options);
  std::vector<SramRow> rows;
  std::vector<std::string> read, missing;
  for (const CompileTarget& t : list) {
    std::optional<CompileOutcome> cached =
        loadReplayableCompile(t, settings, compileCacheKey(t, session.platform, settings, analysis));
    if (!cached) {
      missing.push_back(t.name);
      continue;
    }
    read.push_back(t.name);
    for (SramRow& r : cached->sram) {
      if (!r.actual) continue;
      r.actual_source = "cache";
      rows.push_back(std::move(r));
    }
  }
  sram::mergeSramRows(report.sram, rows);
  std::string detail;
  if (!read.empty())
    detail = "actual figures of " + joined(read) + " read from the compile cache (an earlier compile of the same sources on " +
             std::string(toString(session.platform)) + ", not compiled now)";
  if (!missing.empty())
    detail += (detail.empty() ? "" : "; ") + std::string("no valid cached compile of ") + joined(missing) +
              " (port-check compile fills it)";
  report.run.stages.push_back({"compile cache", read.empty() ? StageState::Skipped : StageState::Ran, detail});
}

}  // namespace

int runReport(const CommonOptions& options, const ReportOptions& report_options, const std::vector<std::string>& paths,
              const Io& io) {
  auto start = std::chrono::steady_clock::now();
  if (paths.empty()) {
    io.err << "port-check: error: report needs PATH... (projects/<name>, projects/, pypto-lib/ or program files)\n";
    return kExitToolError;
  }
  Session session = openSession(options, io);
  std::string bad_assumption;
  const std::optional<cost::Env> parsed = parseAssumptions(report_options.assume, bad_assumption);
  if (!parsed) {
    io.err << "port-check: error: --assume takes NAME=INTEGER, got '" << bad_assumption << "'\n";
    return kExitToolError;
  }
  const cost::Env& assumed = *parsed;
  Report report;
  Targets targets = collectTargets(session.workspace, options.cwd, paths);
  report.append(targets.problems);

  LintSettings settings;
  settings.platform = session.platform;
  settings.config = &session.config;
  settings.kernel_build = clangcheck::kernelBuildEvidence(session.workspace.root, options.kernel_compile);
  LintOutcome lint = lintTargets(session.workspace, targets, settings, options.jobs);
  // Every lint finding, so report and lint agree on the same sources (the SRAM and advice findings the
  // page is about among them).
  report.append(std::move(lint.diagnostics));
  report.run.files = std::move(lint.files);
  sram::mergeSramRows(report.sram, lint.sram);
  report.run.stages.push_back({"estimate", StageState::Ran, ""});
  if (!assumed.empty()) {
    std::string said;
    for (const auto& [n, v] : assumed) said += (said.empty() ? "" : ", ") + n + "=" + std::to_string(v);
    report.run.stages.push_back({"assume", StageState::Ran, "run-time values assumed for the schedule: " + said});
  }
  cachedActualsInto(report, session, options, report_options, targets);

  HtmlReportInput html;
  html.platform = std::string(toString(session.platform));
  html.title = "port-check report";
  for (std::size_t i = 0; i < paths.size() && i < 3; ++i) html.title += (i ? ", " : ": ") + paths[i];
  if (paths.size() > 3) html.title += ", ...";
  auto add = [&](UnitAnalysis u) {
    html.units.push_back(std::move(u.graph));
    if (u.schedule) report.schedule.push_back(std::move(*u.schedule));
  };
  for (const Project& p : targets.projects)
    add(analyzeUnit(session.workspace, p.name, p.sources, session.config, session.platform, true, assumed));
  for (const fs::path& f : targets.files)
    if (isPythonSource(f))
      add(analyzeUnit(session.workspace, f.stem().string(), {f}, session.config, session.platform, false, assumed));

  const fs::path cache = cacheRoot(session, options, report_options.cache_dir);
  // The last `port-check tune` of each project on this platform (docs/tune.md), when the cache has one.
  for (const Project& p : targets.projects) {
    std::ifstream in(cache / "tune" / p.name / (std::string(toString(session.platform)) + ".json"));
    if (!in) continue;
    nlohmann::json tuned = nlohmann::json::parse(in, nullptr, false);
    if (tuned.is_object() && tuned.contains("configs")) html.sections.push_back(tune::tuneSectionHtml(tuned));
  }

  fs::path out;
  if (report_options.html) {
    out = fs::path(*report_options.html);
    if (out.is_relative()) out = options.cwd / out;
  } else {
    out = cache / "report" / "report.html";
  }
  out = out.lexically_normal();
  std::error_code ec;
  if (out.has_parent_path()) fs::create_directories(out.parent_path(), ec);
  // The page is written after the report is final so it shows what the table shows.
  Report page = report;
  page.finalize();
  html.report = &page;
  std::ofstream file(out, std::ios::binary | std::ios::trunc);
  if (file) file << renderHtmlReport(html);
  bool written = static_cast<bool>(file);
  report.run.stages.push_back({"html", written ? StageState::Ran : StageState::Failed,
                               (written ? "wrote " : "cannot write ") + session.workspace.relative(out)});
  report.run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int rc = emitAndExit(report, session, options, io);
  if (!written) {
    io.err << "port-check: error: cannot write the HTML report to " << out.string() << "\n";
    return kExitToolError;
  }
  io.err << "port-check: wrote the HTML report to " << session.workspace.relative(out) << "\n";
  return rc;
}

}  // namespace portcheck

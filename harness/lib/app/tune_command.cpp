// port-check tune PROJECT...: the schedule search of docs/tune.md. The configurations of each port's
// TUNABLES (or knobs proposed from its shapes) are screened by the SRAM estimate and the schedule's
// cost (grid, or beam search when the grid is large); the ones over capacity or far under the
// utilisation goal are pruned; the port as it is and the best survivors are compiled in copies of the
// port (through the compile cache, in parallel); the best that compile cleanly can run their golden on
// the simulator (--run K); everything is ranked by the cost model (tune/cost_model.h). --apply writes
// the pick into the port and records one ledger attempt; --html writes the plot and the table.
#include <cmath>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "app/assume_option.h"
#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "app/ray_jobs.h"
#include "app/record_attempts.h"
#include "compiler/compile_stage.h"
#include "core/atomic_file.h"
#include "dsl/library_imports.h"
#include "golden/run_stage.h"
#include "tune/apply_config.h"
#include "tune/config_search.h"
#include "tune/config_tree.h"
#include "tune/cost_model.h"
#include "tune/estimate_screen.h"
#include "tune/proposed_knobs.h"
#include "tune/tune_html.h"

namespace portcheck {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kGridLimit = 256;

std::string percent(double use) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100.0 * use);
  return b;
}

std::string figure(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "unknown"; }

// What the compile of one configuration left, for its run and for --apply's ledger attempt.
struct CompiledConfig {
  std::optional<CompileTarget> target;
  std::vector<CompileTargetSummary> summary;
  std::vector<Diagnostic> diagnostics;
  std::vector<SramRow> sram;
  std::optional<GoldenRun> golden;
};

struct ProjectTune {
  std::string name;
  std::vector<tune::Knob> knobs;
  bool proposed = false;                // knobs proposed from the shapes (no TUNABLES)
  std::string strategy;
  double grid_size = 0;
  std::vector<tune::Screened> configs;  // ranked
  std::map<tune::Config, CompiledConfig> compiled;  // of the configurations compiled
  std::string problem;                  // why nothing was tuned
  std::string note;                     // what the search could not do (no knob: the port as it is only)
  std::string compile_note;             // why nothing was compiled, when so
  std::vector<std::string> shared;      // "KNOB in FILE": a knob a pypto-lib block assigns too
  std::vector<std::string> applied;     // files --apply wrote
  std::string apply_note;
  // --ray: the jobs the cluster ran, the compiles the driver then replayed from the cache, the seconds.
  std::size_t ray_jobs = 0, ray_replayed = 0, ray_compiles = 0, ray_failed = 0;
  double ray_seconds = 0;
  std::string ray_first_failure;  // what the first job that exited 2 (or was killed) said
};

void compileConfig(const Session& session, const Project& project, tune::Screened& s, CompiledConfig& out,
                   DriverSettings settings) {
  std::string error;
  out.target = tune::writeConfigTree(session.workspace, project, s.config, settings.cache_root, error);
  s.compiled = true;
  if (!out.target) {
    s.status = "not written: " + error;
    return;
  }
  CompileStageOptions stage;
  stage.jobs = 1;
  CompileStageResult r = runCompileStage({*out.target}, session.platform, settings, stage);
  if (!r.targets.empty()) {
    s.status = r.targets.front().status.empty() ? "failed" : r.targets.front().status;
    s.cached = r.targets.front().cached;
  }
  for (const Diagnostic& d : r.diagnostics) {
    s.errors += d.severity == Severity::Error;
    s.hints += d.rule == "PERF001";
  }
  for (const SramRow& row : r.sram) {
    if (!row.actual || row.capacity <= 0) continue;
    double use = static_cast<double>(*row.actual) / static_cast<double>(row.capacity);
    if (use > s.actual_use) {
      s.actual_use = use;
      s.actual_binding = row.function + "/" + row.space;
      s.actual_bytes = *row.actual;
    }
  }
  out.summary = std::move(r.targets);
  out.diagnostics = std::move(r.diagnostics);
  out.sram = std::move(r.sram);
}

void runConfig(const Session& session, tune::Screened& s, CompiledConfig& c, DriverSettings settings,
               std::chrono::milliseconds timeout) {
  settings.timeout = timeout;
  RunStageOptions options;
  RunStageResult r = runGoldenStage({*c.target}, c.summary, session.platform, settings, options);
  s.ran = true;
  if (r.runs.empty()) {
    s.golden = "error";
    s.golden_detail = r.detail;
    return;
  }
  const GoldenRun& g = r.runs.front();
  s.golden = g.status;
  s.golden_detail = (g.rule.empty() ? "" : g.rule + ": ") + g.detail;
  s.sim_seconds = g.seconds;
  c.golden = g;
  c.diagnostics.insert(c.diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
}

// Runs `work(i)` for each index on `jobs` threads.
template <class F>
void parallelFor(const std::vector<std::size_t>& indices, int jobs, F work) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k = next++; k < indices.size(); k = next++) work(indices[k]);
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min<int>(jobs, static_cast<int>(indices.size())); ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
}

// How many configurations the estimate pruned, were compiled and ran.
struct Counts {
  std::size_t pruned = 0, compiled = 0, ran = 0;
};

Counts countsOf(const ProjectTune& t) {
  Counts n;
  for (const tune::Screened& s : t.configs) {
    n.pruned += !s.pruned.empty();
    n.compiled += s.compiled;
    n.ran += s.ran;
  }
  return n;
}

struct TuneRun {
  const Session& session;
  const TuneOptions& options;
  const DriverSettings* settings;  // null: no compile
  int jobs = 1;
  std::chrono::milliseconds run_timeout{600000};
  cost::Env assumed;  // --assume: run-time values for the estimated device time
  std::optional<tune::Config> only;     // --only: this configuration alone
  std::optional<RaySubmission> ray;     // --ray: compiles and runs as Ray tasks
  std::vector<std::string> job_args;    // what every Ray job's port-check command line starts with
  std::vector<std::string> job_tune_args;  // and the tune options it repeats (--cache-dir, --timeout, --assume)
};

// One Ray job: `port-check tune PROJECT --only CONFIG` on a worker, compiled (and with `run`, run), its
// result left in the cache for the driver to replay.
RayJob tuneJob(const TuneRun& run, const Project& project, const tune::Config& config, bool with_run) {
  std::string only;
  for (const auto& [name, value] : config) only += (only.empty() ? "" : ",") + name + "=" + std::to_string(value);
  if (only.empty()) only = "current";  // a port without knobs
  RayJob job{(with_run ? "run " : "compile ") + tune::label(config), run.job_args};
  job.args.insert(job.args.end(), {"tune", run.session.workspace.relative(project.dir), "--only=" + only, "--run",
                                   with_run ? "1" : "0", "--jobs", "1", "--format", "json"});
  job.args.insert(job.args.end(), run.job_tune_args.begin(), run.job_tune_args.end());
  return job;
}

// Runs the jobs on the cluster; false (with the project's problem set) when they could not all run.
bool runOnRay(const TuneRun& run, ProjectTune& t, const std::vector<RayJob>& jobs, std::vector<RayJobResult>& results) {
  if (jobs.empty()) return true;
  RayOutcome o = runRayJobs(*run.ray, jobs);
  t.ray_jobs += jobs.size();
  t.ray_seconds += o.seconds;
  if (!o.ok) {
    t.problem = "--ray: " + o.error;
    return false;
  }
  results = std::move(o.results);
  for (const RayJobResult& r : results)
    if (r.exit_code != 0 && r.exit_code != 1) {  // the job could not do its job: the driver's replay will
      if (t.ray_failed++ == 0) t.ray_first_failure = r.id + ": exit " + std::to_string(r.exit_code) + ": " + r.err;
    }
  return true;
}

// The golden a worker's `tune --only --run 1` reported, from its JSON; null when it reported none.
json workerGolden(const RayJobResult& r) {
  json doc = json::parse(r.out, nullptr, false);
  if (!doc.is_object() || doc.value("projects", json::array()).empty()) return nullptr;
  const json& p = doc["projects"][0];
  if (p.value("configs", json::array()).empty()) return nullptr;
  return p["configs"][0].value("golden", json(nullptr));
}

ProjectTune tuneProject(const TuneRun& run, const Project& project) {
  const Session& session = run.session;
  ProjectTune t;
  t.name = project.name;
  std::vector<SourceFile> files;
  std::vector<std::string> own;
  for (const fs::path& p : project.sources) {
    if (!isPythonSource(p)) continue;
    ReadResult r = readSourceFile(p, session.workspace.relative(p));
    if (r.file) {
      own.push_back(r.file->path);
      files.push_back(std::move(*r.file));
    }
  }
  for (SourceFile& f : dsl::importedLibraryFiles(session.workspace.root, files)) files.push_back(std::move(f));
  const dsl::ProgramModel model = dsl::buildProgramModel(files);
  t.knobs = tune::knobsOf(model);
  if (t.knobs.empty()) {
    t.knobs = tune::proposedKnobs(model, own, session.platform);
    t.proposed = !t.knobs.empty();
  }
  for (const tune::Knob& k : t.knobs)
    for (const dsl::FileModel& f : model.files)
      if (std::find(own.begin(), own.end(), f.path) == own.end())
        if (const dsl::Constant* c = f.constant(k.name); c && !c->imported) t.shared.push_back(k.name + " in " + f.path);
  if (run.only) {
    // --only: the one configuration a driver's Ray job asked for, compiled (and run) whatever the screen says;
    // `current` is the port as it is.
    tune::Config only = *run.only;
    if (only.empty())
      for (const tune::Knob& k : t.knobs) only[k.name] = k.current;
    for (const auto& [name, value] : only)
      if (std::none_of(t.knobs.begin(), t.knobs.end(), [&](const tune::Knob& k) { return k.name == name; })) {
        t.problem = "--only names " + name + ", which is not a knob of the port";
        return t;
      }
    if (only.size() != t.knobs.size()) {
      t.problem = "--only must give every knob of the port a value";
      return t;
    }
    t.strategy = "one configuration (--only)";
    t.grid_size = 1;
    t.configs.push_back(tune::screen(files, only, session.platform, own, run.assumed));
    t.configs.back().current = tune::isCurrent(only, t.knobs);
  } else if (t.knobs.empty()) {
    // Nothing to search: the port as it is is still screened, compiled and run, so every port gets its row.
    t.note = "no knob: no TUNABLES declaration, and no constant the port (or a pypto-lib stage it calls) divides an "
             "extent by to propose; only the port as it is was evaluated (docs/tune.md)";
    t.strategy = "the port as it is";
    t.grid_size = 1;
    t.configs.push_back(tune::screen(files, {}, session.platform, own, run.assumed));
    t.configs.back().current = true;
  } else {
    tune::SearchResult found = tune::searchConfigs(
        t.knobs, [&](const tune::Config& c) { return tune::screen(files, c, session.platform, own, run.assumed); },
        kGridLimit,
        run.options.beam_width);
    t.strategy = found.strategy;
    t.grid_size = found.grid_size;
    t.configs = std::move(found.configs);
  }
  if (!run.only) tune::pruneUnderUsed(t.configs);
  tune::rank(t.configs);
  if (!run.settings) return t;

  // The port as it is (the baseline) and the best survivors, compiled in parallel.
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < t.configs.size(); ++i)
    if ((t.configs[i].pruned.empty() || run.options.no_prune || run.only) &&
        (t.configs[i].current || chosen.size() < run.options.max_compiles)) {
      chosen.push_back(i);
      t.compiled[t.configs[i].config];  // every entry made before the workers start
    }
  if (run.ray) {  // the compiles on the cluster first; the loop below replays them from the cache
    std::vector<RayJob> jobs;
    std::vector<RayJobResult> results;
    for (std::size_t i : chosen) jobs.push_back(tuneJob(run, project, t.configs[i].config, false));
    if (!runOnRay(run, t, jobs, results)) return t;
  }
  parallelFor(chosen, run.jobs, [&](std::size_t i) {
    compileConfig(session, project, t.configs[i], t.compiled.at(t.configs[i].config), *run.settings);
  });
  if (run.ray)
    for (std::size_t i : chosen) {
      t.ray_compiles += 1;
      t.ray_replayed += t.configs[i].cached;
    }
  tune::rank(t.configs);
  if (run.ray) {
    // The goldens in batches on the cluster: the next K - passed of the best that compiled cleanly and have not
    // run, all at once, then replayed in rank order (a pass from the run cache; a failure, which the run cache
    // does not keep, as the worker reported it). The batch never holds more than the local loop would run, so
    // the same configurations run and the ranking is the local one.
    std::size_t passed = 0;
    while (passed < run.options.run_best) {
      std::vector<std::size_t> batch;
      for (std::size_t i = 0; i < t.configs.size() && batch.size() < run.options.run_best - passed; ++i) {
        auto c = t.compiled.find(t.configs[i].config);
        if (!t.configs[i].ran && tune::verdictOf(t.configs[i]) == tune::Verdict::CompiledCleanly &&
            c != t.compiled.end() && c->second.target)
          batch.push_back(i);
      }
      if (batch.empty()) break;
      std::vector<RayJob> jobs;
      std::vector<RayJobResult> results;
      for (std::size_t i : batch) jobs.push_back(tuneJob(run, project, t.configs[i].config, true));
      if (!runOnRay(run, t, jobs, results)) return t;
      for (std::size_t k = 0; k < batch.size(); ++k) {
        tune::Screened& s = t.configs[batch[k]];
        const json g = workerGolden(results[k]);
        if (g.is_object() && g.value("status", "") != "passed") {
          s.ran = true;
          s.golden = g.value("status", "error");
          s.golden_detail = g.value("detail", "");
          s.sim_seconds = g.value("seconds", 0.0);
        } else {
          runConfig(session, s, t.compiled.at(s.config), *run.settings, run.run_timeout);
        }
        passed += s.golden == "passed";
      }
    }
    tune::rank(t.configs);
    return t;
  }
  // The golden for the best that compiled cleanly, one at a time (the simulator uses every core), until
  // K have passed: a configuration that compiles but computes a wrong result does not use up the K.
  std::size_t passed = 0;
  for (std::size_t i = 0; i < t.configs.size() && passed < run.options.run_best; ++i) {
    auto c = t.compiled.find(t.configs[i].config);
    if (tune::verdictOf(t.configs[i]) != tune::Verdict::CompiledCleanly || c == t.compiled.end() || !c->second.target)
      continue;
    runConfig(session, t.configs[i], c->second, *run.settings, run.run_timeout);
    passed += t.configs[i].golden == "passed";
  }
  tune::rank(t.configs);
  return t;
}

// The configuration --apply writes: the best that compiled cleanly (and passed its golden when any ran).
const tune::Screened* pickOf(const ProjectTune& t) {
  if (t.configs.empty()) return nullptr;
  const tune::Verdict v = tune::verdictOf(t.configs.front());
  return v == tune::Verdict::GoldenPassed || v == tune::Verdict::CompiledCleanly ? &t.configs.front() : nullptr;
}

void applyPick(const Session& session, const Project& project, ProjectTune& t) {
  const tune::Screened* pick = pickOf(t);
  if (!pick) {
    t.apply_note = "nothing applied: no configuration compiled cleanly";
    return;
  }
  if (pick->current) {
    t.apply_note = "nothing applied: the port as it is ranks first";
    return;
  }
  if (!t.shared.empty()) {
    t.apply_note = "not applied: the configurations set " + t.shared.front() +
                   " as well (a pypto-lib block); set it there and in the port by hand, or give the port its own constant";
    return;
  }
  std::string error;
  if (!tune::applyConfig(project, pick->config, t.applied, error)) {
    t.apply_note = "not applied: " + error;
    return;
  }
  t.apply_note = "applied " + tune::label(pick->config);
  // One ledger attempt: the pick's compile (and run) as the port now is.
  const CompiledConfig& c = t.compiled.at(pick->config);
  Report report;
  report.append(c.diagnostics);
  for (SramRow row : c.sram) {
    row.project = project.name;
    report.sram.push_back(std::move(row));
  }
  if (c.golden) {
    GoldenRun g = *c.golden;
    g.project = project.name;
    report.golden.push_back(std::move(g));
  }
  report.finalize();
  Targets targets;
  targets.projects.push_back(project);
  recordAttempts(report, session, targets, "tune --apply");
}

json toJson(const ProjectTune& t, Platform platform) {
  json knobs = json::array(), configs = json::array();
  for (const tune::Knob& k : t.knobs)
    knobs.push_back({{"name", k.name}, {"current", k.current}, {"candidates", k.candidates}, {"proposed", t.proposed}});
  for (const tune::Screened& s : t.configs) {
    json c = {{"values", s.config},
              {"label", tune::label(s.config)},
              {"current", s.current},
              {"verdict", std::string(tune::verdictName(tune::verdictOf(s)))},
              {"binding", s.binding},
              {"estimate", s.bytes},
              {"capacity", s.capacity},
              {"use", s.use},
              {"tasks", s.tasks ? json(*s.tasks) : json(nullptr)},
              {"gm_bytes", s.gm_bytes ? json(*s.gm_bytes) : json(nullptr)},
              {"critical_gm_bytes", s.critical_gm_bytes ? json(*s.critical_gm_bytes) : json(nullptr)},
              {"device_us", s.device_us ? json(std::round(*s.device_us * 100.0) / 100.0) : json(nullptr)}};
    if (!s.pruned.empty()) c["pruned"] = s.pruned;
    if (!s.cost_unknown.empty()) c["cost_unknown"] = s.cost_unknown;
    if (s.compiled)
      c["compile"] = {{"status", s.status}, {"cached", s.cached}, {"errors", s.errors}, {"hints", s.hints},
                      {"binding", s.actual_binding}, {"actual", s.actual_bytes}, {"use", s.actual_use}};
    if (s.ran) c["golden"] = {{"status", s.golden}, {"detail", s.golden_detail}, {"seconds", s.sim_seconds}};
    configs.push_back(std::move(c));
  }
  const Counts n = countsOf(t);
  json j = {{"project", t.name},       {"platform", std::string(toString(platform))},
            {"knobs", knobs},          {"strategy", t.strategy},
            {"grid_size", t.grid_size}, {"configs", configs},
            {"pruned_by_estimate", n.pruned}, {"compiles_saved", n.pruned},
            {"compiled", n.compiled},  {"ran", n.ran}};
  if (const tune::Screened* pick = pickOf(t)) j["pick"] = tune::label(pick->config);
  if (!t.compile_note.empty()) j["compile_note"] = t.compile_note;
  if (!t.problem.empty()) j["problem"] = t.problem;
  if (!t.note.empty()) j["note"] = t.note;
  if (!t.shared.empty()) j["shared_with_blocks"] = t.shared;
  if (!t.apply_note.empty()) j["apply"] = {{"note", t.apply_note}, {"files", t.applied}};
  if (t.ray_jobs)
    j["ray"] = {{"jobs", t.ray_jobs}, {"compiles", t.ray_compiles}, {"replayed", t.ray_replayed},
                {"seconds", std::round(t.ray_seconds * 10.0) / 10.0}, {"failed_jobs", t.ray_failed}};
  if (t.ray_failed) j["ray"]["first_failure"] = t.ray_first_failure;
  return j;
}

std::string compilerText(const tune::Screened& s) {
  if (!s.compiled) return s.pruned.empty() ? "not compiled" : "";
  if (s.status != "ok" || s.errors) return s.status + (s.errors ? ", " + std::to_string(s.errors) + " error(s)" : "");
  return "ok" + std::string(s.cached ? " (cached)" : "") + ", " + s.actual_binding + " " + percent(s.actual_use) + ", " +
         std::to_string(s.hints) + " hint(s)";
}

std::string goldenText(const tune::Screened& s) {
  if (!s.ran) return "";
  char b[64];
  std::snprintf(b, sizeof b, " %.1f s", s.sim_seconds);
  return s.golden + (s.golden == "passed" ? b : ": " + s.golden_detail);
}

void printText(const ProjectTune& t, Platform platform, std::ostream& out) {
  out << t.name << " (" << toString(platform) << ")";
  if (!t.problem.empty()) {
    out << ": " << t.problem << "\n";
    return;
  }
  out << ": " << t.configs.size() << " configuration" << (t.configs.size() == 1 ? "" : "s") << " screened ("
      << t.strategy << " over " << static_cast<long long>(t.grid_size) << ")"
      << (t.proposed ? "; no TUNABLES, so candidates proposed from the shapes" : "") << "\n";
  if (!t.note.empty()) out << "  note: " << t.note << "\n";
  out << "  rank  configuration                            est. us     critical GM   GM bytes      tasks  estimate                              compiler"
         "                                golden\n";
  int rank = 0;
  for (const tune::Screened& s : t.configs) {
    const bool kept = s.pruned.empty();
    std::string cfg = tune::label(s.config) + (s.current ? " (now)" : "");
    std::string estimate = kept ? s.binding + " " + percent(s.use) : "PRUNED " + s.pruned;
    char line[1024];
    char us[32] = "?";
    if (s.device_us) std::snprintf(us, sizeof us, "%.2f", *s.device_us);
    std::snprintf(line, sizeof line, "  %4s  %-40s %-11s %-13s %-13s %-6s %-37s %-39s %s", kept ? std::to_string(++rank).c_str() : "-",
                  cfg.c_str(), us, figure(s.critical_gm_bytes).c_str(), figure(s.gm_bytes).c_str(), figure(s.tasks).c_str(), estimate.c_str(),
                  compilerText(s).c_str(), goldenText(s).c_str());
    std::string text = line;
    text.erase(text.find_last_not_of(' ') + 1);
    out << text << "\n";
  }
  const Counts n = countsOf(t);
  out << "  " << n.pruned << " of " << t.configs.size() << " pruned by the estimate (compiles saved), " << n.compiled
      << " compiled, " << n.ran << " run" << (t.compile_note.empty() ? "" : " (" + t.compile_note + ")") << "\n";
  if (t.ray_jobs) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", t.ray_seconds);
    out << "  ray: " << t.ray_jobs << " job(s) on the cluster in " << secs << " s; " << t.ray_replayed << " of "
        << t.ray_compiles << " compiles replayed from the cache\n";
    if (t.ray_failed)
      out << "  ray: " << t.ray_failed << " job(s) could not do their job on the worker (done here instead); first: "
          << t.ray_first_failure << "\n";
  }
  if (const tune::Screened* pick = pickOf(t)) out << "  pick: " << tune::label(pick->config) << "\n";
  for (const std::string& sh : t.shared) out << "  note: the knob " << sh << " is set there too in every configuration\n";
  if (!t.apply_note.empty()) out << "  " << t.apply_note << "\n";
}

}  // namespace

int runTune(const CommonOptions& options, const TuneOptions& tune_options, const std::vector<std::string>& paths,
            const Io& io) {
  if (paths.empty()) {
    io.err << "port-check: error: tune needs PROJECT... (projects/<name>)\n";
    return kExitToolError;
  }
  if (tune_options.apply && !tune_options.compile) {
    io.err << "port-check: error: --apply needs the compiler: only a configuration that compiled cleanly is written\n";
    return kExitToolError;
  }
  std::string bad_assumption;
  const std::optional<cost::Env> assumed = parseAssumptions(tune_options.assume, bad_assumption);
  if (!assumed) {
    io.err << "port-check: error: --assume takes NAME=INTEGER, got '" << bad_assumption << "'\n";
    return kExitToolError;
  }
  std::optional<tune::Config> only;
  if (tune_options.only && !(only = tune::parseConfig(*tune_options.only))) {
    io.err << "port-check: error: --only takes NAME=INTEGER[,NAME=INTEGER...] or current, got '" << *tune_options.only
           << "'\n";
    return kExitToolError;
  }
  if (tune_options.ray && (only || tune_options.apply || !tune_options.compile)) {
    io.err << "port-check: error: --ray sends the compiles and runs to a Ray cluster: it needs the compile (not "
              "--no-compile), and does not combine with --only or --apply (apply the pick of a Ray tune afterwards: "
              "the tune again with --apply replays every compile from the cache)\n";
    return kExitToolError;
  }
  Session session = openSession(options, io);
  Targets targets = collectTargets(session.workspace, options.cwd, paths);
  for (const Diagnostic& d : targets.problems) io.err << "port-check: error: " << d.message << "\n";
  if (!targets.problems.empty() || targets.projects.empty()) {
    if (targets.projects.empty()) io.err << "port-check: error: tune works on projects (a folder with pypto_src/)\n";
    return kExitToolError;
  }
  if (tune_options.ray && !session.toolchain.found) {
    io.err << "port-check: error: --ray needs the PyPTO toolchain the jobs compile with: " << session.toolchain.why_not
           << "\n";
    return kExitToolError;
  }
  // The compiler, when asked for and found: each survivor compiled in its own copy of the port.
  std::optional<DriverSettings> settings;
  std::string compile_note;
  Report scratch;
  if (!tune_options.compile) compile_note = "--no-compile";
  else if (!session.toolchain.found) compile_note = "no PyPTO toolchain: " + session.toolchain.why_not;
  else {
    CompileOptions compile;
    compile.cache_dir = tune_options.cache_dir;
    settings = compileDriverSettings(session, options, compile);
    settings->timeout = std::chrono::seconds(timeoutSeconds(scratch, session, tune_options.timeout_seconds,
                                                            "compile.timeout", 300));
  }
  TuneRun run{session, tune_options, settings ? &*settings : nullptr};
  run.assumed = *assumed;
  run.jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  run.run_timeout = std::chrono::seconds(timeoutSeconds(scratch, session, tune_options.timeout_seconds, "run.timeout", 600));
  const fs::path cache = fs::absolute(cacheRoot(session, options, tune_options.cache_dir));
  run.only = only;
  if (tune_options.ray) {
    RaySubmission ray;
    ray.address = *tune_options.ray;
    ray.python = rayPython(tune_options.ray_python, io.getenv);
    ray.cwd = session.workspace.root;
    ray.cache_root = cache;
    run.ray = ray;
    run.job_args = rayCommonArgs(session, options);
    std::vector<std::string>& more = run.job_tune_args;
    more.insert(more.end(), {"--cache-dir", cache.string()});
    if (tune_options.timeout_seconds) more.insert(more.end(), {"--timeout", std::to_string(*tune_options.timeout_seconds)});
    for (const std::string& a : tune_options.assume) more.insert(more.end(), {"--assume", a});
  }
  json all = json::array();
  bool any_problem = false;
  for (const Project& p : targets.projects) {
    ProjectTune t = tuneProject(run, p);
    t.compile_note = compile_note;
    if (tune_options.apply && t.problem.empty()) applyPick(session, p, t);
    any_problem |= !t.problem.empty() || (tune_options.apply && t.apply_note.rfind("not applied", 0) == 0);
    if (!t.problem.empty()) io.err << "port-check: error: " << p.name << ": " << t.problem << "\n";
    json j = toJson(t, session.platform);
    // The last tune of the project on this platform, for port-check report's page (not a Ray job's one configuration).
    std::string error;
    if (!only)
      writeFileAtomically(cache / "tune" / p.name / (std::string(toString(session.platform)) + ".json"), j.dump(1), error, true);
    if (options.format != Format::Json) printText(t, session.platform, io.out);
    all.push_back(std::move(j));
  }
  const json doc = {{"schema", "port-check-tune/1"}, {"projects", all}};
  if (options.format == Format::Json) io.out << doc.dump(2) << "\n";
  if (tune_options.html) {
    std::string error;
    if (!writeFileAtomically(*tune_options.html, tune::tunePageHtml(doc), error, true)) {
      io.err << "port-check: error: " << error << "\n";
      return kExitToolError;
    }
  }
  return any_problem ? kExitToolError : kExitClean;
}

}  // namespace portcheck

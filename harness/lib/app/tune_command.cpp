// port-check tune PROJECT...: the configurations of each port's TUNABLES (docs/tune.md), screened by
// the SRAM estimate before any compile: the ones over a space's capacity are pruned, the rest ranked
// by how much of their binding space they use (the porting method's "grow tiles while SRAM is
// under-used"). With the toolchain, the best survivors are compiled in copies of the port (through
// the compile cache) and ranked again on the compiler's figures: compiled cleanly first, then the
// compiler's binding use, then fewer performance hints.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "compiler/compile_stage.h"
#include "dsl/library_imports.h"
#include "tune/config_tree.h"
#include "tune/estimate_screen.h"

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

struct ProjectTune {
  std::string name;
  std::vector<tune::Knob> knobs;
  std::vector<tune::Screened> configs;  // ranked
  bool truncated = false;
  std::string problem;                  // why nothing was tuned
  std::string compile_note;             // why nothing was compiled, when so
};

void compileConfig(const Session& session, const Project& project, tune::Screened& s, DriverSettings settings,
                   std::string& problem);
void rankConfigs(std::vector<tune::Screened>& configs);

ProjectTune tuneProject(const Session& session, const Project& project, const DriverSettings* compile,
                        std::size_t max_compiles) {
  ProjectTune t;
  t.name = project.name;
  std::vector<SourceFile> files;
  for (const fs::path& p : project.sources) {
    if (!isPythonSource(p)) continue;
    ReadResult r = readSourceFile(p, session.workspace.relative(p));
    if (r.file) files.push_back(std::move(*r.file));
  }
  for (SourceFile& f : dsl::importedLibraryFiles(session.workspace.root, files)) files.push_back(std::move(f));
  t.knobs = tune::knobsOf(dsl::buildProgramModel(files));
  if (t.knobs.empty()) {
    t.problem = "no TUNABLES declaration naming a constant of the port (docs/tune.md; `port-check lint` checks it)";
    return t;
  }
  for (const tune::Config& c : tune::gridOf(t.knobs, kGridLimit, t.truncated)) {
    tune::Screened s = tune::screen(files, c, session.platform);
    s.current = tune::isCurrent(c, t.knobs);
    t.configs.push_back(std::move(s));
  }
  rankConfigs(t.configs);
  if (!compile) return t;
  std::size_t done = 0;
  for (tune::Screened& s : t.configs) {
    if (!s.fits || done == max_compiles) continue;
    compileConfig(session, project, s, *compile, t.problem);
    if (!t.problem.empty()) return t;
    ++done;
  }
  rankConfigs(t.configs);
  return t;
}

// Compiles the configuration in its own copy of the port and records the compiler's verdict.
void compileConfig(const Session& session, const Project& project, tune::Screened& s, DriverSettings settings,
                   std::string& problem) {
  std::string error;
  std::optional<CompileTarget> target = tune::writeConfigTree(session.workspace, project, s.config, settings.cache_root, error);
  if (!target) {
    problem = "cannot write the configuration " + tune::label(s.config) + ": " + error;
    return;
  }
  CompileStageOptions stage;
  stage.jobs = 1;
  CompileStageResult r = runCompileStage({*target}, session.platform, settings, stage);
  s.compiled = true;
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
}

bool compiledCleanly(const tune::Screened& s) { return s.compiled && s.status == "ok" && s.errors == 0; }

// Compiled cleanly (by the compiler's use, then fewer hints), then the other survivors by the
// estimate, then the pruned.
void rankConfigs(std::vector<tune::Screened>& configs) {
  auto tier = [](const tune::Screened& s) { return !s.fits ? 3 : compiledCleanly(s) ? 0 : s.compiled ? 2 : 1; };
  std::stable_sort(configs.begin(), configs.end(), [&](const tune::Screened& a, const tune::Screened& b) {
    if (tier(a) != tier(b)) return tier(a) < tier(b);
    if (tier(a) == 0 && a.actual_use != b.actual_use) return a.actual_use > b.actual_use;
    if (tier(a) == 0 && a.hints != b.hints) return a.hints < b.hints;
    return a.fits ? a.use > b.use : a.use < b.use;
  });
}

std::string compilerText(const tune::Screened& s) {
  if (!s.compiled) return s.fits ? "not compiled" : "";
  if (!compiledCleanly(s)) return s.status + (s.errors ? ", " + std::to_string(s.errors) + " error(s)" : "");
  return "ok" + std::string(s.cached ? " (cached)" : "") + ", " + s.actual_binding + " " + std::to_string(s.actual_bytes) +
         " (" + percent(s.actual_use) + "), " + std::to_string(s.hints) + " hint(s)";
}

json toJson(const ProjectTune& t, Platform platform) {
  json knobs = json::array(), configs = json::array();
  for (const tune::Knob& k : t.knobs) knobs.push_back({{"name", k.name}, {"current", k.current}, {"candidates", k.candidates}});
  std::size_t pruned = 0, compiled = 0;
  for (const tune::Screened& s : t.configs) {
    pruned += !s.fits;
    json c = {{"values", s.config}, {"verdict", s.fits ? "fits" : "pruned: over capacity"},
              {"binding", s.binding}, {"estimate", s.bytes}, {"capacity", s.capacity}, {"use", s.use},
              {"current", s.current}};
    if (s.compiled)
      c["compile"] = {{"status", s.status}, {"cached", s.cached}, {"errors", s.errors}, {"hints", s.hints},
                      {"binding", s.actual_binding}, {"actual", s.actual_bytes}, {"use", s.actual_use}};
    configs.push_back(std::move(c));
    compiled += s.compiled;
  }
  json j = {{"project", t.name}, {"platform", std::string(toString(platform))}, {"knobs", knobs},
            {"configs", configs}, {"pruned_by_estimate", pruned}, {"compiled", compiled},
            {"grid_truncated", t.truncated}};
  if (!t.compile_note.empty()) j["compile_note"] = t.compile_note;
  if (!t.problem.empty()) j["problem"] = t.problem;
  return j;
}

void printText(const ProjectTune& t, Platform platform, std::ostream& out) {
  out << t.name << " (" << toString(platform) << ")";
  if (!t.problem.empty()) {
    out << ": " << t.problem << "\n";
    return;
  }
  out << ": " << t.configs.size() << " configuration" << (t.configs.size() == 1 ? "" : "s")
      << (t.truncated ? " (the first " + std::to_string(kGridLimit) + " of the grid)" : "") << "\n";
  out << "  rank  configuration                    estimate                                      compiler\n";
  int rank = 0;
  std::size_t pruned = 0, compiled = 0;
  for (const tune::Screened& s : t.configs) {
    pruned += !s.fits;
    compiled += s.compiled;
    std::string cfg = tune::label(s.config) + (s.current ? " (now)" : "");
    std::string estimate = std::string(s.fits ? "fits" : "PRUNED") + " " + s.binding + " " + std::to_string(s.bytes) +
                           " (" + percent(s.use) + ")";
    char line[768];
    std::snprintf(line, sizeof line, "  %4s  %-32s %-45s %s\n", s.fits ? std::to_string(++rank).c_str() : "-",
                  cfg.c_str(), estimate.c_str(), compilerText(s).c_str());
    out << line;
  }
  out << "  " << pruned << " of " << t.configs.size() << " pruned by the estimate, " << compiled << " compiled"
      << (t.compile_note.empty() ? "" : " (" + t.compile_note + ")") << "\n";
}

}  // namespace

int runTune(const CommonOptions& options, const TuneOptions& tune_options, const std::vector<std::string>& paths,
            const Io& io) {
  if (paths.empty()) {
    io.err << "port-check: error: tune needs PROJECT... (projects/<name>)\n";
    return kExitToolError;
  }
  Session session = openSession(options, io);
  Targets targets = collectTargets(session.workspace, options.cwd, paths);
  for (const Diagnostic& d : targets.problems) io.err << "port-check: error: " << d.message << "\n";
  if (!targets.problems.empty() || targets.projects.empty()) {
    if (targets.projects.empty()) io.err << "port-check: error: tune works on projects (a folder with pypto_src/)\n";
    return kExitToolError;
  }
  // The compiler, when asked for and found: each survivor compiled in its own copy of the port.
  std::optional<DriverSettings> settings;
  std::string compile_note;
  if (!tune_options.compile) compile_note = "--no-compile";
  else if (!session.toolchain.found) compile_note = "no PyPTO toolchain: " + session.toolchain.why_not;
  else {
    CompileOptions compile;
    compile.cache_dir = tune_options.cache_dir;
    settings = compileDriverSettings(session, options, compile);
    Report scratch;
    settings->timeout = std::chrono::seconds(timeoutSeconds(scratch, session, tune_options.timeout_seconds,
                                                            "compile.timeout", 300));
  }
  json all = json::array();
  bool any_problem = false;
  for (const Project& p : targets.projects) {
    ProjectTune t = tuneProject(session, p, settings ? &*settings : nullptr, tune_options.max_compiles);
    t.compile_note = compile_note;
    any_problem |= !t.problem.empty();
    if (options.format == Format::Json) all.push_back(toJson(t, session.platform));
    else printText(t, session.platform, io.out);
  }
  if (options.format == Format::Json) io.out << json{{"schema", "port-check-tune/1"}, {"projects", all}}.dump(2) << "\n";
  return any_problem ? kExitToolError : kExitClean;
}

}  // namespace portcheck

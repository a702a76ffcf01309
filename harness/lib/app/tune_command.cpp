// port-check tune PROJECT...: the configurations of each port's TUNABLES (docs/tune.md), screened by
// the SRAM estimate before any compile: the ones over a space's capacity are pruned, the rest ranked
// by how much of their binding space they use (the porting method's "grow tiles while SRAM is
// under-used"). Compiling the survivors and ranking them on the compiler's figures is issue 20's next
// step and says so.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "dsl/library_imports.h"
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
};

ProjectTune tuneProject(const Session& session, const Project& project) {
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
  std::stable_sort(t.configs.begin(), t.configs.end(), [](const tune::Screened& a, const tune::Screened& b) {
    if (a.fits != b.fits) return a.fits;
    return a.fits ? a.use > b.use : a.use < b.use;
  });
  return t;
}

json toJson(const ProjectTune& t, Platform platform) {
  json knobs = json::array(), configs = json::array();
  for (const tune::Knob& k : t.knobs) knobs.push_back({{"name", k.name}, {"current", k.current}, {"candidates", k.candidates}});
  std::size_t pruned = 0;
  for (const tune::Screened& s : t.configs) {
    pruned += !s.fits;
    configs.push_back({{"values", s.config}, {"verdict", s.fits ? "fits" : "pruned: over capacity"},
                       {"binding", s.binding}, {"estimate", s.bytes}, {"capacity", s.capacity}, {"use", s.use},
                       {"current", s.current}});
  }
  json j = {{"project", t.name}, {"platform", std::string(toString(platform))}, {"knobs", knobs},
            {"configs", configs}, {"pruned_by_estimate", pruned}, {"compiled", 0},
            {"grid_truncated", t.truncated},
            {"next", "compiling the survivors and ranking them on the compiler's figures is not built yet (issue 20)"}};
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
  out << "  rank  configuration                          verdict     binding (estimate)\n";
  int rank = 0;
  std::size_t pruned = 0;
  for (const tune::Screened& s : t.configs) {
    pruned += !s.fits;
    std::string cfg = tune::label(s.config) + (s.current ? " (now)" : "");
    char line[512];
    std::snprintf(line, sizeof line, "  %4s  %-38s %-10s  %s %s\n", s.fits ? std::to_string(++rank).c_str() : "-",
                  cfg.c_str(), s.fits ? "fits" : "pruned", s.binding.c_str(),
                  (std::to_string(s.bytes) + " of " + std::to_string(s.capacity) + ", " + percent(s.use)).c_str());
    out << line;
  }
  out << "  " << pruned << " of " << t.configs.size() << " pruned by the estimate, 0 compiled: compiling the "
      << "survivors is not built yet (issue 20)\n";
}

}  // namespace

int runTune(const CommonOptions& options, const std::vector<std::string>& paths, const Io& io) {
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
  json all = json::array();
  bool any_problem = false;
  for (const Project& p : targets.projects) {
    ProjectTune t = tuneProject(session, p);
    any_problem |= !t.problem.empty();
    if (options.format == Format::Json) all.push_back(toJson(t, session.platform));
    else printText(t, session.platform, io.out);
  }
  if (options.format == Format::Json) io.out << json{{"schema", "port-check-tune/1"}, {"projects", all}}.dump(2) << "\n";
  return any_problem ? kExitToolError : kExitClean;
}

}  // namespace portcheck

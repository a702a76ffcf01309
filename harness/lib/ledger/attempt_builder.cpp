#include "ledger/attempt_builder.h"

#include <algorithm>
#include <chrono>
#include <ctime>

#include "core/text.h"

namespace portcheck::ledger {

namespace {

bool under(const std::string& file, const std::string& dir) { return file == dir || startsWith(file, dir + "/"); }

bool inProject(const std::string& file, const std::string& project_dir, const ProjectSources& sources) {
  if (under(file, project_dir)) return true;
  for (const FileHash& f : sources.hashes)
    if (f.path == file) return true;
  return false;
}

bool claimedByOther(const std::string& file, const RunContext& run) {
  for (const std::string& dir : run.other_projects)
    if (under(file, dir)) return true;
  return std::find(run.other_files.begin(), run.other_files.end(), file) != run.other_files.end();
}

// A finding is the project's when it or one of its notes points into the project, or when it points
// where no other project of the run is (no file, or a generated file under the compile cache).
bool belongsTo(const Diagnostic& d, const std::string& project_dir, const ProjectSources& sources,
               const RunContext& run) {
  if (d.file.empty() || inProject(d.file, project_dir, sources)) return true;
  for (const DiagnosticNote& n : d.notes)
    if (!n.file.empty() && inProject(n.file, project_dir, sources)) return true;
  if (claimedByOther(d.file, run)) return false;
  for (const DiagnosticNote& n : d.notes)
    if (!n.file.empty() && claimedByOther(n.file, run)) return false;
  return true;
}

bool isLedgerOwn(const Diagnostic& d) { return d.source == Stage::Ledger || d.rule == "TOOL007"; }

GoldenOutcome goldenFrom(const GoldenRun& g) {
  GoldenOutcome o;
  o.status = g.status;
  o.platform = g.platform;
  o.rule = g.rule;
  o.detail = g.detail;
  for (const GoldenOutput& x : g.outputs) {
    // The adapter says where every output's tolerance came from; without that the figures are not known.
    const bool tolerance_known = !x.tolerance_source.empty() || x.rtol != 0 || x.atol != 0;
    o.outputs.push_back({x.name, x.passed, x.verdict, x.mismatches, x.elements, x.max_abs_err, x.max_rel_err,
                         tolerance_known ? std::optional<double>(x.rtol) : std::nullopt,
                         tolerance_known ? std::optional<double>(x.atol) : std::nullopt});
  }
  return o;
}

}  // namespace

Attempt attemptFromReport(const Report& report, const Workspace& ws, const Project& project,
                          const ProjectSources& sources, const std::vector<CodeSpan>& spans, const RunContext& run) {
  Attempt a;
  a.time = run.time;
  a.command = run.command;
  a.scaffold = run.command == "new";
  a.platform = report.run.platform;
  a.tool_version = report.run.tool_version;
  a.project = ws.relative(project.dir);
  a.toolchain = run.toolchain;
  a.toolchain_text = run.toolchain_text;
  a.source_hash = sources.source_hash;
  a.library_hash = sources.library_hash;
  a.files = sources.hashes;
  a.functions = definedNames(spans);
  for (const StageStatus& s : report.run.stages) a.stages.push_back({s.name, std::string(toString(s.state)), s.detail});
  for (const Diagnostic& d : report.diagnostics) {
    if (isLedgerOwn(d) || !belongsTo(d, a.project, sources, run)) continue;
    a.findings.push_back(
        {d.rule, d.severity, d.source, d.file, d.line, enclosingFunction(spans, d.file, d.line), d.message});
  }
  for (const SramRow& r : report.sram)
    if (r.project == project.name || startsWith(r.project, project.name + ":"))
      a.sram.push_back({r.function, r.space, r.estimate, r.actual, r.capacity});
  for (const GoldenRun& g : report.golden)
    if (g.project == project.name) {
      a.golden = goldenFrom(g);
      break;
    }
  return a;
}

std::string utcNow() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace portcheck::ledger

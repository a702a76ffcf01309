#include "ledger/attempt_builder.h"

#include <chrono>
#include <ctime>

#include "core/text.h"

namespace portcheck::ledger {

namespace {

bool belongsTo(const Diagnostic& d, const std::string& project_dir, const ProjectSources& sources) {
  if (d.file.empty()) return true;
  if (d.file == project_dir || startsWith(d.file, project_dir + "/")) return true;
  for (const FileHash& f : sources.hashes)
    if (f.path == d.file) return true;
  return false;
}

bool isLedgerOwn(const Diagnostic& d) { return d.source == Stage::Ledger || d.rule == "TOOL007"; }

GoldenOutcome goldenFrom(const GoldenRun& g) {
  GoldenOutcome o;
  o.status = g.status;
  o.platform = g.platform;
  o.rule = g.rule;
  o.detail = g.detail;
  for (const GoldenOutput& x : g.outputs)
    o.outputs.push_back({x.name, x.passed, x.verdict, x.mismatches, x.elements, x.max_abs_err, x.max_rel_err});
  return o;
}

}  // namespace

Attempt attemptFromReport(const Report& report, const Workspace& ws, const Project& project,
                          const ProjectSources& sources, const std::vector<CodeSpan>& spans, const std::string& command,
                          const std::string& time) {
  Attempt a;
  a.time = time;
  a.command = command;
  a.platform = report.run.platform;
  a.tool_version = report.run.tool_version;
  a.project = ws.relative(project.dir);
  a.source_hash = sources.source_hash;
  a.library_hash = sources.library_hash;
  a.files = sources.hashes;
  a.functions = definedNames(spans);
  for (const StageStatus& s : report.run.stages) a.stages.push_back({s.name, std::string(toString(s.state)), s.detail});
  for (const Diagnostic& d : report.diagnostics) {
    if (isLedgerOwn(d) || !belongsTo(d, a.project, sources)) continue;
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

// port-check new NAME [--kind op|model] [--kernel]: scaffold projects/NAME from the built-in templates.
#include <ostream>

#include "app/commands.h"
#include "app/record_attempts.h"
#include "scaffold/scaffold.h"

namespace portcheck {

int runNew(const CommonOptions& options, const NewOptions& no, const Io& io) {
  auto kind = parseProjectKind(no.kind);
  if (!kind) {
    io.err << "port-check: error: unknown project kind '" << no.kind << "' (op or model)\n";
    return kExitToolError;
  }
  Workspace ws = Workspace::discover(options.cwd);
  ScaffoldRequest request{no.name, *kind, no.kernel};
  ScaffoldOutcome outcome = scaffoldProject(ws.root, request);
  if (!outcome.error.empty()) {
    io.err << "port-check: error: " << outcome.error << "\n";
    return kExitToolError;
  }
  // The skeleton is the ledger's first attempt, so filling it in is measured against it (LOOP003 lets
  // that change be as large as it needs to be) and a check of the untouched skeleton is a re-run of it.
  Session session = openSession(options, io);
  Targets targets = collectTargets(session.workspace, options.cwd, {outcome.dir.string()});
  Report report;
  completeReport(report, session);
  recordAttempts(report, session, targets, "new");
  for (const Diagnostic& d : report.diagnostics)
    if (d.rule == "TOOL007") io.err << "port-check: warning: " << d.message << "\n";
  std::string dir = ws.relative(outcome.dir);
  io.out << "created " << dir << "/ (" << toString(*kind) << ", " << outcome.files.size() << " files)\n";
  for (const auto& f : outcome.files) io.out << "  " << ws.relative(f) << "\n";
  io.out << "next: put the original program in " << dir << "/original/, follow " << dir
         << "/PORTING.md, and run `port-check check " << dir << "` after every change\n";
  return kExitClean;
}

}  // namespace portcheck

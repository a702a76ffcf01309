// port-check ledger PROJECT: the attempts check, compile and run recorded (docs/ledger.md).
#include <filesystem>

#include "app/commands.h"
#include "core/file_lock.h"
#include "ledger/ledger_file.h"
#include "ledger/ledger_view.h"

namespace portcheck {

namespace fs = std::filesystem;

int runLedger(const CommonOptions& options, const LedgerOptions& lo, const Io& io) {
  if (!lo.markdown && options.format != Format::Text && options.format != Format::Json) {
    io.err << "port-check: error: ledger prints text, --format json or --markdown\n";
    return kExitToolError;
  }
  if (lo.project.empty()) {
    io.err << "port-check: error: ledger needs a project (projects/<name>)\n";
    return kExitToolError;
  }
  Session session = openSession(options, io);
  Targets targets = collectTargets(session.workspace, options.cwd, {lo.project});
  if (!targets.problems.empty() || targets.projects.size() != 1 || !targets.files.empty()) {
    io.err << "port-check: error: '" << lo.project
           << "' is not one project: give the folder holding pypto_src/ (projects/<name>)\n";
    return kExitToolError;
  }
  const Project& project = targets.projects.front();
  ledger::LedgerPaths paths = ledger::ledgerPaths(project.dir);
  std::string error;
  ledger::LedgerRead read;
  {
    // The lock keeps a folding rewrite or a half-written append out of the read; no folder, no ledger.
    std::error_code ec;
    std::optional<FileLock> lock;
    if (fs::is_directory(paths.dir, ec)) lock.emplace(paths.lock);
    read = ledger::readLedger(paths.ledger, error);
  }
  if (!error.empty()) {
    io.err << "port-check: error: " << error << "\n";
    return kExitToolError;
  }
  std::string display = session.workspace.relative(project.dir);
  std::string other;
  const int foreign = ledger::removeForeignRecords(read.history, display, other);
  ledger::LedgerView view =
      ledger::buildLedgerView(read.history, display, ledger::loopSettings(session.config), lo.last);
  for (Diagnostic& d : ledger::skippedLineWarnings(display, read.skipped)) view.diagnostics.push_back(std::move(d));
  if (foreign > 0) view.diagnostics.push_back(ledger::foreignRecordsWarning(display, foreign, other));
  session.config.apply(view.diagnostics);  // rules turned off or re-rated in port-check.json, as check shows them
  for (ledger::AttemptRow& row : view.rows) session.config.apply(row.loop);

  std::string text = lo.markdown                        ? ledger::ledgerMarkdown(view)
                     : options.format == Format::Json ? ledger::ledgerJson(view, options.doc_base_url).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
                                                        : ledger::ledgerText(view);
  if (!writeCommandOutput(text, options, io)) return kExitToolError;
  Report report;
  report.diagnostics = view.diagnostics;
  return exitCodeFor(report, session.fail_on);
}

}  // namespace portcheck

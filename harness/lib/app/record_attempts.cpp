#include "app/record_attempts.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "core/file_lock.h"
#include "ledger/attempt_builder.h"
#include "ledger/attempt_recorder.h"

namespace portcheck {

namespace {

int maxAttempts(const Config& config) {
  auto it = config.options.find("ledger.max_attempts");
  if (it == config.options.end()) return ledger::kDefaultMaxAttempts;
  char* end = nullptr;
  long v = std::strtol(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || v < 1 || v > 100000) return ledger::kDefaultMaxAttempts;
  return static_cast<int>(v);
}

void addLedgerFindings(Report& report, const Session& session, std::vector<Diagnostic> diagnostics) {
  session.config.apply(diagnostics);
  report.append(std::move(diagnostics));
  report.finalize();
}

}  // namespace

void recordAttempts(Report& report, const Session& session, const Targets& targets, const std::string& command) {
  std::vector<const Project*> projects;
  std::error_code ec;
  for (const Project& p : targets.projects)
    if (std::filesystem::is_directory(p.pypto_src, ec)) projects.push_back(&p);
  // Locks are taken in path order, so two commands over overlapping projects cannot deadlock.
  std::sort(projects.begin(), projects.end(), [](const Project* a, const Project* b) { return a->dir < b->dir; });
  projects.erase(std::unique(projects.begin(), projects.end(),
                             [](const Project* a, const Project* b) { return a->dir == b->dir; }),
                 projects.end());
  if (projects.empty()) return;

  const std::string time = ledger::utcNow();
  const ledger::LoopSettings settings = ledger::loopSettings(session.config);
  std::vector<std::unique_ptr<FileLock>> locks;
  std::vector<ledger::PendingAttempt> pending;
  std::vector<Diagnostic> found;
  for (const Project* p : projects) {
    locks.push_back(std::make_unique<FileLock>(ledger::ledgerPaths(p->dir).lock));
    ledger::ProjectSources sources = ledger::readProjectSources(session.workspace, *p);
    std::vector<ledger::CodeSpan> spans = ledger::codeSpans(sources.files);
    ledger::Attempt attempt =
        ledger::attemptFromReport(report, session.workspace, *p, sources, spans, command, time);
    pending.push_back(ledger::prepareAttempt(p->dir, std::move(attempt), sources, spans, settings));
    found.insert(found.end(), pending.back().loop.begin(), pending.back().loop.end());
    found.insert(found.end(), pending.back().problems.begin(), pending.back().problems.end());
  }
  addLedgerFindings(report, session, std::move(found));

  // The record keeps the exit status the command returns, loop findings included.
  const int exit_code = exitCodeFor(report, session.fail_on);
  std::vector<Diagnostic> late;
  for (ledger::PendingAttempt& p : pending) {
    std::size_t known = p.problems.size();
    ledger::commitAttempt(p, exit_code, maxAttempts(session.config));
    late.insert(late.end(), p.problems.begin() + static_cast<std::ptrdiff_t>(known), p.problems.end());
  }
  if (!late.empty()) addLedgerFindings(report, session, std::move(late));
}

int recordEmitAndExit(Report& report, const Session& session, const CommonOptions& options, const Io& io,
                      const Targets& targets, const std::string& command, bool no_ledger) {
  completeReport(report, session);
  if (!no_ledger) recordAttempts(report, session, targets, command);
  return emitCompleted(report, session, options, io);
}

}  // namespace portcheck

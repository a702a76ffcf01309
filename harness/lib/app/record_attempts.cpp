#include "app/record_attempts.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "core/file_lock.h"
#include "ledger/attempt_builder.h"
#include "ledger/attempt_recorder.h"
#include "toolchain/toolchain_identity.h"

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

  ledger::RunContext run;
  run.command = command;
  run.time = ledger::utcNow();
  run.toolchain = toolchainIdentity(session.toolchain);
  run.toolchain_text = report.run.toolchain;
  const ledger::LoopSettings settings = ledger::loopSettings(session.config);
  std::vector<ledger::ProjectSources> sources;
  for (const Project* p : projects) sources.push_back(ledger::readProjectSources(session.workspace, *p));
  std::vector<std::unique_ptr<FileLock>> locks;
  std::vector<ledger::PendingAttempt> pending;
  std::vector<Diagnostic> found;
  for (std::size_t i = 0; i < projects.size(); ++i) {
    const Project* p = projects[i];
    ledger::RunContext own = run;
    for (std::size_t j = 0; j < projects.size(); ++j) {
      if (j == i) continue;
      own.other_projects.push_back(session.workspace.relative(projects[j]->dir));
      for (const ledger::FileHash& f : sources[j].hashes) own.other_files.push_back(f.path);
    }
    locks.push_back(std::make_unique<FileLock>(ledger::ledgerPaths(p->dir).lock));
    std::vector<ledger::CodeSpan> spans = ledger::codeSpans(sources[i].files);
    ledger::Attempt attempt = ledger::attemptFromReport(report, session.workspace, *p, sources[i], spans, own);
    pending.push_back(ledger::prepareAttempt(p->dir, std::move(attempt), sources[i], spans, settings));
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

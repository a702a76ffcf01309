// port-check skills check | install: validate the skill pack, install it into another repository.
#include <chrono>
#include <ostream>

#include "app/commands.h"
#include "core/elapsed.h"
#include "skills/installer.h"
#include "skills/pack_checks.h"
#include "skills/release_check.h"
#include "skills/skill_pack.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

fs::path resolve(const CommonOptions& options, const std::string& p) {
  fs::path path(p);
  return (path.is_absolute() ? path : options.cwd / path).lexically_normal();
}

// The pack a command works on: PACK when given, else the workspace root.
fs::path packRoot(const CommonOptions& options, const SkillsOptions& so, const Session& session) {
  return so.pack.empty() ? session.workspace.root : resolve(options, so.pack);
}

}  // namespace

int runSkillsCheck(const CommonOptions& options, const SkillsOptions& so, const Io& io) {
  auto start = std::chrono::steady_clock::now();
  Session session = openSession(options, io);
  fs::path root = packRoot(options, so, session);
  if (!isSkillPackRoot(root)) {
    io.err << "port-check: error: no skill pack at " << root.string()
           << " (expected skills/ and .claude-plugin/plugin.json)\n";
    return kExitToolError;
  }
  Report report;
  report.append(checkSkillPack(session.workspace, root));
  report.run.stages.push_back({"skills", StageState::Ran, ""});
  ReleaseCheckOutcome release = checkReleaseBump(session.workspace, root);
  report.append(std::move(release.diagnostics));
  report.run.stages.push_back({"release", release.ran ? StageState::Ran : StageState::Skipped, release.detail});
  for (const PackFile& f : skillFilesFromDir(root))
    if (f.path.size() > 3 && f.path.compare(f.path.size() - 3, 3, ".md") == 0)
      report.run.files.push_back(session.workspace.relative(root / f.path));
  report.run.seconds = secondsSince(start);
  return emitAndExit(report, session, options, io);
}

int runSkillsInstall(const CommonOptions& options, const SkillsOptions& so, const Io& io) {
  auto start = std::chrono::steady_clock::now();
  Session session = openSession(options, io);
  InstallRequest request;
  request.target = resolve(options, so.target);
  request.force = so.force;
  std::error_code ec;
  if (!fs::is_directory(request.target, ec)) {
    io.err << "port-check: error: install target " << request.target.string() << " is not a folder\n";
    return kExitToolError;
  }
  // The pack: PACK, else the workspace when it is the pack's repository, else the built-in copy.
  std::string source;
  fs::path root = packRoot(options, so, session);
  if (!so.pack.empty() && !isSkillPackRoot(root)) {
    io.err << "port-check: error: no skill pack at " << root.string()
           << " (expected skills/ and .claude-plugin/plugin.json)\n";
    return kExitToolError;
  }
  if (isSkillPackRoot(root)) {
    request.files = skillFilesFromDir(root);
    auto plugin = readWholeFile(root / kPluginManifest);
    request.pack_version = plugin ? pluginVersion(*plugin) : "";
    request.pack_name = plugin ? pluginName(*plugin) : "";
    source = session.workspace.relative(root);
  } else {
    request.files = skillFilesEmbedded();
    auto plugin = embeddedPackFile(kPluginManifest);
    request.pack_version = plugin ? pluginVersion(*plugin) : "";
    request.pack_name = plugin ? pluginName(*plugin) : "";
    source = "the pack built into port-check";
  }
  if (request.files.empty()) {
    io.err << "port-check: error: the skill pack (" << source << ") has no skills\n";
    return kExitToolError;
  }
  InstallOutcome outcome = installSkills(session.workspace, request);
  if (!outcome.error.empty()) {
    io.err << "port-check: error: " << outcome.error << "\n";
    return kExitToolError;
  }
  fs::path dest = request.target / ".claude" / "skills";
  if (outcome.refused)
    io.err << "port-check: refused to install into " << dest.string() << ": " << outcome.diagnostics.size()
           << " locally edited file(s); re-run with --force to replace them\n";
  else
    io.err << "port-check: installed " << request.pack_name << " " << request.pack_version << " from " << source
           << " into " << dest.string() << ": " << outcome.written.size() << " written, " << outcome.removed.size()
           << " removed, " << outcome.unchanged << " unchanged\n";
  Report report;
  report.append(std::move(outcome.diagnostics));
  report.run.stages.push_back({"install", outcome.refused ? StageState::Failed : StageState::Ran, ""});
  report.run.seconds = secondsSince(start);
  return emitAndExit(report, session, options, io);
}

}  // namespace portcheck

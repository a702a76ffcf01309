// port-check hook install|uninstall|run and lint --staged/--changed-since: checks what git is about
// to commit (the staged blobs), or what a branch changed, without touching the index or work tree.
#include <chrono>
#include <ostream>
#include <system_error>

#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "clangcheck/kernel_compile.h"
#include "core/elapsed.h"
#include "git/change_set.h"
#include "git/hook_installer.h"
#include "git/lint_plan.h"
#include "git/path_patterns.h"
#include "git/staged_tree.h"
#include "lint/lint_engine.h"
#include "rules/catalogue.h"
#include "sram/sram_estimator.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

// Staged copies kept for cache replay (one per recently committed project state).
constexpr std::size_t kStagedTreesKept = 32;

struct ChangeRun {
  Session session;
  Report report;
  bool checked_anything = false;
};

fs::path canonicalOrSelf(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : c;
}

// PATH arguments as repository-relative prefixes. Throws GitError for a path outside the repository.
std::vector<std::string> repositoryPrefixes(const std::vector<std::string>& paths, const fs::path& cwd,
                                            const fs::path& root) {
  std::vector<std::string> out;
  for (const std::string& arg : paths) {
    fs::path abs = canonicalOrSelf(fs::path(arg).is_absolute() ? fs::path(arg) : cwd / arg);
    fs::path rel = abs.lexically_relative(root);
    if (rel.empty() || *rel.begin() == "..")
      throw git::GitError("'" + arg + "' is outside the git work tree " + root.string());
    std::string s = rel.generic_string();
    out.push_back(s == "." ? "" : s);
  }
  return out;
}

// hook.compile: the staged trees of the touched projects and program files, compiled (or replayed
// from the cache); findings point at the repository paths, never at the copies.
void compileStaged(ChangeRun& run, const CommonOptions& options, const Io& io, const git::Repository& repo,
                   const git::ChangeSet& changes, const git::LintPlan& plan) {
  const CompileOptions compile;
  fs::path cache = compileCacheRoot(run.session, options, compile);
  git::StagedTargets staged = git::materializeStagedTargets(repo, changes, plan, cache);
  for (const std::string& s : staged.skipped) io.err << "port-check: note: " << s << "\n";
  run.report.append(std::move(staged.problems));
  if (staged.targets.empty()) {
    run.report.run.stages.push_back({"compile", StageState::Skipped, "no staged project or program file to compile"});
    return;
  }
  // Without a toolchain: an info (TOOL003) and the commit proceeds, or, when the team asked tool
  // errors to block, an error (COMP909) that blocks it.
  compileTargetsInto(run.report, run.session, options, compile, staged.targets, io,
                     /*required=*/run.session.config.hook.block_on_tool_error);
  git::pruneStagedTrees(cache, kStagedTreesKept);
}

// The files the pre-commit framework named (`port-check hook run FILE...`, relative to the working
// folder), as changes of their staged content: `pre-commit run --all-files` names every file and stages
// nothing, a commit names what it stages. A named file the index does not hold (deleted) is left out.
std::vector<git::Change> namedChanges(const std::vector<std::string>& named, const git::Snapshot& index,
                                      const fs::path& cwd, const fs::path& root) {
  std::vector<git::Change> out;
  for (const std::string& path : repositoryPrefixes(named, cwd, root))
    if (index.find(path)) out.push_back({git::ChangeKind::Modified, path, path});
  return out;
}

// Opens the repository, reads the changes, lints their blobs into run.report. Throws GitError.
// `named`: check these files (and the projects they belong to) rather than what the index changes.
void lintChanges(ChangeRun& run, const CommonOptions& options, const Io& io, const GitChangeOptions& what,
                 const std::vector<std::string>& paths, bool for_hook, const std::vector<std::string>& named = {}) {
  git::Repository repo = git::Repository::open(options.cwd, io.getenv);
  if (repo.bare()) throw git::GitError("the repository " + repo.gitDir().string() + " is bare: it has no staged work");
  fs::path root = canonicalOrSelf(repo.workdir());
  if (run.session.workspace.root != root) {  // the repository's root is the workspace: paths are repo-relative
    CommonOptions at_root = options;
    at_root.cwd = root;
    if (options.config && fs::path(*options.config).is_relative()) at_root.config = (options.cwd / *options.config).string();
    run.session = openSession(at_root, io);
    run.session.workspace.root = root;
  }
  const Config& config = run.session.config;

  git::ChangeSet changes;
  if (what.staged) {
    git::IndexPtr index = repo.stagedIndex(options.cwd, io.getenv);
    changes = git::stagedChanges(repo, index.get());
    if (!named.empty()) {
      changes.changes = namedChanges(named, changes.after, options.cwd, root);
      changes.description = "the staged content of the files named";
    }
  } else {
    const std::vector<std::string>& patterns = config.hook.paths;
    changes = git::changesSince(repo, what.changed_since,
                                [&](std::string_view dir) { return git::folderMayMatch(patterns, dir); });
  }
  git::PlanOptions plan_options{config.hook.paths, repositoryPrefixes(paths, options.cwd, root)};
  git::LintPlan plan = git::planLint(repo, run.session.workspace, changes, plan_options);
  for (const std::string& s : plan.skipped) io.err << "port-check: note: " << s << "\n";
  run.checked_anything = !plan.empty();

  LintSettings settings;
  settings.platform = run.session.platform;
  settings.config = &config;
  settings.kernel_build = clangcheck::kernelBuildEvidence(run.session.workspace.root, options.kernel_compile);
  LintOutcome lint = lintMemoryUnits(run.session.workspace, plan.units, settings, options.jobs);
  run.report.append(git::findingsOfChange(std::move(lint.diagnostics), plan));
  sram::mergeSramRows(run.report.sram, lint.sram);  // the touched projects' estimates, as `lint` shows them
  run.report.append(std::move(plan.problems));
  for (const std::string& f : lint.files)
    if (plan.changed.count(f)) run.report.run.files.push_back(f);
  run.report.run.stages.push_back({"lint", StageState::Ran, changes.description});

  if (for_hook && config.hook.compile && run.checked_anything) compileStaged(run, options, io, repo, changes, plan);
}

const char* kBypass = "bypass this check knowingly with `git commit --no-verify`";

// A tool error inside the hook: blocks only when port-check.json asks for it.
int hookToolError(const Config& config, const Io& io, const std::string& what) {
  if (config.hook.block_on_tool_error) {
    io.err << "port-check: error: " << what << "\n"
           << "port-check: commit blocked because hook.on_tool_error is \"block\" in port-check.json; fix the problem, or "
           << kBypass << "\n";
    return kExitToolError;
  }
  io.err << "port-check: error: " << what << "\n"
         << "port-check: the commit is NOT blocked (hook.on_tool_error is \"allow\"); set it to \"block\" to stop "
            "commits port-check cannot check\n";
  return kExitClean;
}

int hookRun(const CommonOptions& options, const Io& io, const std::vector<std::string>& named) {
  auto start = std::chrono::steady_clock::now();
  ChangeRun run{openSession(options, io), {}, false};
  try {
    lintChanges(run, options, io, GitChangeOptions{true, ""}, {}, /*for_hook=*/true, named);
  } catch (const git::GitError& e) {
    return hookToolError(run.session.config, io, std::string("cannot read the staged files: ") + e.what());
  }
  if (!run.checked_anything && run.session.config_problems.empty()) return kExitClean;  // nothing of ours staged
  run.report.run.seconds = secondsSince(start);
  int rc = emitAndExit(run.report, run.session, options, io);
  if (rc == kExitClean) return rc;
  int findings_rc = kExitClean;
  if (rc == kExitToolError) {
    Report without_tool;
    for (const Diagnostic& d : run.report.diagnostics)
      if (d.source != Stage::Tool) without_tool.add(d);
    findings_rc = exitCodeFor(without_tool, run.session.fail_on);
  }
  if (rc == kExitFindings || (findings_rc == kExitFindings && !run.session.config.hook.block_on_tool_error)) {
    io.err << "port-check: commit blocked: the staged content (what this commit records, not your working files) has "
              "the findings above.\n"
           << "port-check: fix them and `git add` the fixes, or " << kBypass << ".\n";
    return kExitFindings;
  }
  return hookToolError(run.session.config, io, "port-check could not check everything that is staged (the TOOL findings above)");
}

fs::path thisExecutable() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

int hookInstall(const CommonOptions& options, const HookOptions& hook, const Io& io, bool install) {
  if (install && hook.force && hook.chain) {
    io.err << "port-check: error: hook install takes --force or --chain, not both\n";
    return kExitToolError;
  }
  fs::path hooks_dir;
  try {
    git::Repository repo = git::Repository::open(options.cwd, io.getenv);
    hooks_dir = repo.hooksDir();
  } catch (const git::GitError& e) {
    io.err << "port-check: error: " << e.what() << "\n";
    return kExitToolError;
  }
  git::HookChange change;
  if (install) {
    std::string exe = hook.executable.empty() ? thisExecutable().string() : hook.executable;
    if (exe.empty()) exe = "port-check";
    change = git::installPreCommitHook(hooks_dir, exe, hook.force, hook.chain);
  } else {
    change = git::uninstallPreCommitHook(hooks_dir);
  }
  if (!change.ok()) {
    io.err << "port-check: error: " << change.message << "\n";
    return kExitToolError;
  }
  io.out << "port-check: " << change.message << "\n";
  if (install) io.out << "port-check: commits now check the staged ports; bypass once, knowingly, with `git commit --no-verify`\n";
  return kExitClean;
}

}  // namespace

int runHook(const CommonOptions& options, const HookOptions& hook, const Io& io) {
  const std::string action = hook.words.empty() ? "" : hook.words[0];
  if ((action != "install" && action != "uninstall" && action != "run") || (action != "run" && hook.words.size() > 1)) {
    io.err << "port-check: error: hook takes one of: install [--force|--chain], uninstall, run [FILE...]\n";
    return kExitToolError;
  }
  if (action != "install" && (hook.force || hook.chain)) {
    io.err << "port-check: error: --force and --chain apply to hook install only\n";
    return kExitToolError;
  }
  if (action == "run") return hookRun(options, io, std::vector<std::string>(hook.words.begin() + 1, hook.words.end()));
  return hookInstall(options, hook, io, action == "install");
}

int runLintChanges(const CommonOptions& options, const GitChangeOptions& git, const std::vector<std::string>& paths,
                   const Io& io) {
  auto start = std::chrono::steady_clock::now();
  if (git.staged == !git.changed_since.empty()) {
    io.err << "port-check: error: lint takes either --staged or --changed-since REV\n";
    return kExitToolError;
  }
  ChangeRun run{openSession(options, io), {}, false};
  try {
    lintChanges(run, options, io, git, paths, /*for_hook=*/false);
  } catch (const git::GitError& e) {
    io.err << "port-check: error: " << e.what() << "\n";
    return kExitToolError;
  }
  run.report.run.seconds = secondsSince(start);
  return emitAndExit(run.report, run.session, options, io);
}

}  // namespace portcheck

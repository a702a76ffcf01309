#pragma once
// A git repository opened the way a git command (or a hook git runs) would find it.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "git/libgit2_handle.h"

namespace portcheck::git {

using EnvLookup = std::function<const char*(const char*)>;

class Repository {
 public:
  // Opens the repository a git command run in `cwd` would use: $GIT_DIR (and $GIT_WORK_TREE) when
  // set, else the nearest repository at or above `cwd`. Throws GitError when there is none.
  // Opened normally, not with GIT_REPOSITORY_OPEN_FROM_ENV: libgit2 1.5.1 refuses that flag when
  // $GIT_WORK_TREE or $GIT_COMMON_DIR is set, which is exactly how git runs hooks in some setups.
  static Repository open(const std::filesystem::path& cwd, const EnvLookup& env);

  git_repository* get() const { return repo_.get(); }
  bool bare() const;
  std::filesystem::path workdir() const;    // absolute, no trailing '/'; empty when bare
  std::filesystem::path gitDir() const;     // this work tree's git dir (.git/worktrees/<name> for a worktree)
  std::filesystem::path commonDir() const;  // the git dir shared by all work trees (hooks live there)
  // core.hooksPath (a relative value is relative to the work tree root, as git runs hooks there),
  // else <commonDir>/hooks.
  std::filesystem::path hooksDir() const;

  // The index git is about to commit: $GIT_INDEX_FILE when set (git commit -a and git commit <paths>
  // give hooks a temporary index there), else the repository's index. Loaded read-only: port-check
  // never writes an index.
  IndexPtr stagedIndex(const std::filesystem::path& cwd, const EnvLookup& env) const;
  // HEAD's tree; null when HEAD is unborn (the first commit).
  TreePtr headTree() const;
  // The tree of a revision (anything git rev-parse takes). Throws GitError naming `rev`.
  TreePtr treeOf(const std::string& rev) const;
  // The tree of the merge base of `rev` and HEAD (what `git diff REV...HEAD` compares against).
  TreePtr mergeBaseTree(const std::string& rev) const;

 private:
  explicit Repository(RepositoryPtr repo) : repo_(std::move(repo)) {}
  RepositoryPtr repo_;
};

}  // namespace portcheck::git

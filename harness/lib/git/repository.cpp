#include "git/repository.h"

namespace portcheck::git {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> envValue(const EnvLookup& env, const char* name) {
  if (!env) return std::nullopt;
  const char* v = env(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

fs::path absoluteFrom(const fs::path& cwd, const std::string& p) {
  fs::path path(p);
  return (path.is_absolute() ? path : cwd / path).lexically_normal();
}

fs::path withoutTrailingSlash(const char* p) {
  if (!p) return {};
  std::string s(p);
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return fs::path(s);
}

}  // namespace

Repository Repository::open(const fs::path& cwd, const EnvLookup& env) {
  ensureLibgit2();
  git_repository* raw = nullptr;
  if (auto dir = envValue(env, "GIT_DIR")) {
    fs::path gitdir = absoluteFrom(cwd, *dir);
    check(git_repository_open_ext(&raw, gitdir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr),
          "cannot open the git repository at $GIT_DIR (" + gitdir.string() + ")");
    RepositoryPtr repo(raw);
    if (auto wt = envValue(env, "GIT_WORK_TREE"))
      check(git_repository_set_workdir(repo.get(), absoluteFrom(cwd, *wt).c_str(), 0),
            "cannot use $GIT_WORK_TREE (" + *wt + ")");
    return Repository(std::move(repo));
  }
  int rc = git_repository_open_ext(&raw, cwd.c_str(), 0, nullptr);
  if (rc == GIT_ENOTFOUND)
    throw GitError("not inside a git repository (looked in " + cwd.string() + " and the folders above it)");
  check(rc, "cannot open the git repository at " + cwd.string());
  return Repository(RepositoryPtr(raw));
}

bool Repository::bare() const { return git_repository_is_bare(repo_.get()) == 1; }

fs::path Repository::workdir() const { return withoutTrailingSlash(git_repository_workdir(repo_.get())); }

fs::path Repository::gitDir() const { return withoutTrailingSlash(git_repository_path(repo_.get())); }

fs::path Repository::commonDir() const { return withoutTrailingSlash(git_repository_commondir(repo_.get())); }

fs::path Repository::hooksDir() const {
  git_config* raw = nullptr;
  check(git_repository_config_snapshot(&raw, repo_.get()), "cannot read the git configuration");
  ConfigPtr config(raw);
  git_buf buf = GIT_BUF_INIT;
  fs::path dir;
  if (git_config_get_path(&buf, config.get(), "core.hooksPath") == 0) {
    fs::path p(std::string(buf.ptr, buf.size));
    git_buf_dispose(&buf);
    fs::path base = bare() ? gitDir() : workdir();
    dir = (p.is_absolute() ? p : base / p).lexically_normal();
  } else {
    git_error_clear();
    dir = commonDir() / "hooks";
  }
  std::string s = dir.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return fs::path(s);
}

IndexPtr Repository::stagedIndex(const fs::path& cwd, const EnvLookup& env) const {
  git_index* raw = nullptr;
  if (auto file = envValue(env, "GIT_INDEX_FILE")) {
    fs::path path = absoluteFrom(cwd, *file);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
      throw GitError("$GIT_INDEX_FILE names " + path.string() + ", which is not a readable index file");
    check(git_index_open(&raw, path.c_str()), "cannot read the index in $GIT_INDEX_FILE (" + path.string() + ")");
    return IndexPtr(raw);  // standalone: blobs are looked up in this repository by the caller
  }
  check(git_repository_index(&raw, repo_.get()), "cannot read the repository's index");
  IndexPtr index(raw);
  check(git_index_read(index.get(), /*force=*/0), "cannot read the repository's index");
  return index;
}

TreePtr Repository::headTree() const {
  int unborn = git_repository_head_unborn(repo_.get());
  if (unborn == 1) return nullptr;
  check(unborn, "cannot read HEAD");
  git_object* obj = nullptr;
  check(git_revparse_single(&obj, repo_.get(), "HEAD^{tree}"), "cannot read HEAD's tree");
  return TreePtr(reinterpret_cast<git_tree*>(obj));
}

TreePtr Repository::treeOf(const std::string& rev) const {
  git_object* obj = nullptr;
  check(git_revparse_single(&obj, repo_.get(), (rev + "^{tree}").c_str()), "cannot resolve revision '" + rev + "'");
  return TreePtr(reinterpret_cast<git_tree*>(obj));
}

TreePtr Repository::mergeBaseTree(const std::string& rev) const {
  git_object* obj = nullptr;
  check(git_revparse_single(&obj, repo_.get(), (rev + "^{commit}").c_str()), "cannot resolve revision '" + rev + "'");
  ObjectPtr target(obj);
  git_oid head;
  check(git_reference_name_to_id(&head, repo_.get(), "HEAD"), "cannot read HEAD");
  git_oid base;
  int rc = git_merge_base(&base, repo_.get(), git_object_id(target.get()), &head);
  if (rc == GIT_ENOTFOUND)
    throw GitError("'" + rev + "' and HEAD have no common ancestor (in CI, fetch enough history: git fetch --unshallow, or a deeper fetch-depth)");
  check(rc, "cannot find the merge base of '" + rev + "' and HEAD");
  git_commit* commit = nullptr;
  check(git_commit_lookup(&commit, repo_.get(), &base), "cannot read the merge base commit");
  CommitPtr c(commit);
  git_tree* tree = nullptr;
  check(git_commit_tree(&tree, c.get()), "cannot read the merge base tree");
  return TreePtr(tree);
}

}  // namespace portcheck::git

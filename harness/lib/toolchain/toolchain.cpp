#include "toolchain/toolchain.h"

#include <git2.h>

namespace portcheck {

namespace fs = std::filesystem;

bool isPyptoCheckout(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "python" / "pypto" / "__init__.py", ec);
}

std::optional<std::string> gitHeadRevision(const fs::path& dir) {
  git_libgit2_init();
  git_repository* repo = nullptr;
  std::optional<std::string> rev;
  if (git_repository_open_ext(&repo, dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) == 0) {
    git_oid oid;
    if (git_reference_name_to_id(&oid, repo, "HEAD") == 0) {
      char buf[GIT_OID_HEXSZ + 1];
      git_oid_tostr(buf, sizeof buf, &oid);
      rev = std::string(buf).substr(0, 12);
    }
    git_repository_free(repo);
  }
  git_libgit2_shutdown();
  return rev;
}

std::string Toolchain::describe() const {
  if (!found) return "pypto not found (" + why_not + ")";
  return "pypto " + revision + " at " + pypto_root.string() + " (from " + origin + "), python " + python;
}

Toolchain detectToolchain(const fs::path& root, const ToolchainOptions& options,
                          const std::function<const char*(const char*)>& getenv_fn) {
  Toolchain t;
  if (options.python) t.python = *options.python;
  else if (const char* p = getenv_fn("PYPTO_PYTHON"); p && *p) t.python = p;

  fs::path candidate;
  if (options.pypto) {
    candidate = *options.pypto;
    t.origin = "--pypto";
  } else if (const char* env = getenv_fn("PYPTO_ROOT"); env && *env) {
    candidate = env;
    t.origin = "PYPTO_ROOT";
  } else {
    candidate = root.parent_path() / "pypto";
    t.origin = "../pypto";
  }
  std::error_code ec;
  fs::path abs = fs::absolute(candidate, ec).lexically_normal();
  if (!isPyptoCheckout(abs)) {
    t.why_not = "looked in " + abs.string() + " (" + t.origin + "); it is not a PyPTO checkout with python/pypto/";
    return t;
  }
  t.found = true;
  t.pypto_root = abs;
  t.revision = gitHeadRevision(abs).value_or("unknown");
  return t;
}

}  // namespace portcheck

#include "git/libgit2_handle.h"

#include <mutex>

namespace portcheck::git {

void ensureLibgit2() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

int check(int rc, const std::string& what) {
  if (rc >= 0) return rc;
  const git_error* e = git_error_last();
  std::string detail = e && e->message ? e->message : "unknown libgit2 error " + std::to_string(rc);
  throw GitError(what + ": " + detail);
}

}  // namespace portcheck::git

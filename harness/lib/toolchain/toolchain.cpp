#include "toolchain/toolchain.h"

#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file_stamp.h"
#include "git/head_revision.h"

namespace portcheck {

namespace fs = std::filesystem;

bool isPyptoCheckout(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "python" / "pypto" / "__init__.py", ec);
}

std::optional<std::string> gitHeadRevision(const fs::path& dir) {
  if (std::optional<std::string> plain = readHeadFromGitFiles(dir)) return plain->substr(0, 12);
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

namespace {

bool isExecutable(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// python/pypto/pypto_core*.so, as the native CMake build writes it.
void findExtension(Toolchain& t) {
  std::error_code ec;
  fs::path dir = t.pypto_root / "python" / "pypto";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind("pypto_core", 0) == 0 && name.size() > 3 && name.substr(name.size() - 3) == ".so") {
      t.extension = it->path();
      t.extension_stamp = fileStamp(it->path()).value_or("");
      return;
    }
  }
}

}  // namespace

void detectPtoas(Toolchain& t, const std::function<const char*(const char*)>& getenv_fn) {
  t.ptoas.clear();
  if (const char* root = getenv_fn("PTOAS_ROOT"); root && *root) {
    t.ptoas_origin = "PTOAS_ROOT";
    for (const char* rel : {"ptoas", "ptoas.sh", "bin/ptoas"}) {
      fs::path candidate = fs::path(root) / rel;
      if (isExecutable(candidate)) {
        t.ptoas = candidate;
        return;
      }
    }
    t.ptoas_why_not = std::string("PTOAS_ROOT=") + root + " holds no executable ptoas, ptoas.sh or bin/ptoas";
    return;
  }
  t.ptoas_origin = "PATH";
  const char* path = getenv_fn("PATH");
  std::string dirs = path ? path : "";
  std::size_t start = 0;
  while (!dirs.empty() && start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    fs::path candidate = fs::path(start == end ? std::string(".") : dirs.substr(start, end - start)) / "ptoas";
    if (isExecutable(candidate)) {
      t.ptoas = candidate;
      return;
    }
    start = end + 1;
  }
  t.ptoas_why_not = "no ptoas on PATH and PTOAS_ROOT is not set";
}

std::string Toolchain::levels() const { return ptoas.empty() ? "passes" : "passes+ptoas"; }

std::string Toolchain::describe() const {
  if (!found) return "pypto not found (" + why_not + ")";
  std::string text = "pypto " + revision + " at " + pypto_root.string() + " (from " + origin + "), python " + python;
  if (extension.empty()) text += ", extension not built";
  text += ptoas.empty() ? ", ptoas not found" : ", ptoas " + ptoas.string() + " (from " + ptoas_origin + ")";
  text += "; levels: " + levels();
  return text;
}

namespace {

// `p` relative to `root` when it is below or beside it (../pypto), else its file name in <>.
std::string portablePath(const fs::path& p, const fs::path& root) {
  fs::path rel = p.lexically_normal().lexically_relative(root.lexically_normal());
  int ups = 0;
  for (const fs::path& part : rel) ups += part == "..";
  if (!rel.empty() && ups <= 1 && !rel.is_absolute()) return rel.generic_string();
  return "<" + p.filename().string() + ">";
}

}  // namespace

std::string Toolchain::describeFor(const fs::path& workspace_root) const {
  if (!found) return "pypto not found";
  std::string text = "pypto " + revision + " at " + portablePath(pypto_root, workspace_root) + " (from " + origin +
                     "), python " + fs::path(python).filename().string();
  if (extension.empty()) text += ", extension not built";
  text += ptoas.empty() ? ", ptoas not found" : ", ptoas (from " + ptoas_origin + ")";
  text += "; levels: " + levels();
  return text;
}

Toolchain detectToolchain(const fs::path& root, const ToolchainOptions& options,
                          const std::function<const char*(const char*)>& getenv_fn) {
  Toolchain t;
  if (options.python) t.python = *options.python;
  else if (const char* p = getenv_fn("PYPTO_PYTHON"); p && *p) t.python = p;
  // A relative path names a file from here; the adapter starts in the port's folder. Made absolute
  // without resolving links: a virtual environment's python is a link and must keep its path.
  if (t.python.find('/') != std::string::npos && fs::path(t.python).is_relative()) {
    std::error_code ec;
    fs::path abs = fs::absolute(t.python, ec);
    if (!ec) t.python = abs.lexically_normal().string();
  }

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
  findExtension(t);
  detectPtoas(t, getenv_fn);
  return t;
}

}  // namespace portcheck

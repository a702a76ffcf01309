#pragma once
// Finds the PyPTO toolchain: --pypto DIR, else PYPTO_ROOT, else ../pypto beside the workspace;
// ptoas (optional) the way PyPTO itself looks for it: PTOAS_ROOT, else PATH.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace portcheck {

struct ToolchainOptions {
  std::optional<std::filesystem::path> pypto;   // --pypto
  std::optional<std::string> python;            // --python
};

struct Toolchain {
  bool found = false;
  std::filesystem::path pypto_root;  // absolute
  std::string origin;                // "--pypto", "PYPTO_ROOT" or "../pypto"
  std::string revision;              // short commit id, or "unknown"
  std::string python = "python3";    // interpreter: --python, PYPTO_PYTHON, python3
  std::string why_not;               // when !found: where it looked
  std::filesystem::path extension;   // the built pypto_core extension module, empty when not built
  std::string extension_stamp;       // size and mtime of `extension` (cache key: a rebuild changes it)
  std::filesystem::path ptoas;       // ptoas executable, empty when none is reachable
  std::string ptoas_origin;          // "PTOAS_ROOT" or "PATH"
  std::string ptoas_why_not;         // when no ptoas: where it looked

  // The levels a compile can reach: "passes" (ptoas absent: kernels stop at .pto) or "passes+ptoas".
  // The simulator level is never run by port-check compile.
  std::string levels() const;
  std::string describe() const;      // one line for --version, with full paths
  // The same for reports, which may be kept in a repository: paths relative to `workspace_root`
  // (e.g. ../pypto), the interpreter and ptoas by file name; never a machine's absolute path.
  std::string describeFor(const std::filesystem::path& workspace_root) const;
};

// ptoas as PyPTO finds it (pypto backend/_ptoas_locate.py): when PTOAS_ROOT is set only
// <root>/ptoas, <root>/ptoas.sh and <root>/bin/ptoas, else the first `ptoas` on PATH.
void detectPtoas(Toolchain& t, const std::function<const char*(const char*)>& getenv_fn);

// Reads the environment through `getenv` (injectable for tests).
Toolchain detectToolchain(const std::filesystem::path& workspace_root, const ToolchainOptions& options,
                          const std::function<const char*(const char*)>& getenv_fn);

// True when `dir` looks like a PyPTO checkout (python/pypto/__init__.py).
bool isPyptoCheckout(const std::filesystem::path& dir);

// Short HEAD commit of the git repository at `dir` (libgit2), or nullopt.
std::optional<std::string> gitHeadRevision(const std::filesystem::path& dir);

}  // namespace portcheck

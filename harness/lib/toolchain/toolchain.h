#pragma once
// Finds the PyPTO toolchain: --pypto DIR, else PYPTO_ROOT, else ../pypto beside the workspace.
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

  std::string describe() const;      // one line for --version and reports
};

// Reads the environment through `getenv` (injectable for tests).
Toolchain detectToolchain(const std::filesystem::path& workspace_root, const ToolchainOptions& options,
                          const std::function<const char*(const char*)>& getenv_fn);

// True when `dir` looks like a PyPTO checkout (python/pypto/__init__.py).
bool isPyptoCheckout(const std::filesystem::path& dir);

// Short HEAD commit of the git repository at `dir` (libgit2), or nullopt.
std::optional<std::string> gitHeadRevision(const std::filesystem::path& dir);

}  // namespace portcheck

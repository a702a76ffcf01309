#pragma once
// Helpers for the robustness tests: running the port-check binary with a command prefix (another
// user, an environment without PYPTO_ROOT), and hashing a tree to prove nothing in it changed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>

#include "compiler/content_hash.h"
#include "test_support.h"

namespace portcheck::test {

inline std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `<prefix> port-check <args>` through /bin/sh in `cwd`, without the caller's PYPTO_ROOT, PTO_ISA_ROOT,
// PYPTO_PYTHON and NO_COLOR; stdout and stderr merged.
inline CommandResult runPortCheck(const std::string& args, const std::filesystem::path& cwd,
                                  const std::string& prefix = "") {
  std::string cmd = "cd " + quoted(cwd.string()) + " && env -u PYPTO_ROOT -u PYPTO_PYTHON -u PTO_ISA_ROOT -u NO_COLOR " + prefix + " " +
                    quoted(PORTCHECK_BINARY) + " " + args + " 2>&1";
  return runShell(cmd);
}

// Relative path -> content hash (symlinks by their target text) of every entry under `root`,
// skipping folders named in `skip` (relative paths).
inline std::map<std::string, std::string> treeSnapshot(const std::filesystem::path& root,
                                                       const std::vector<std::string>& skip = {}) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::string rel = fs::relative(it->path(), root, ec).generic_string();
    if (std::find(skip.begin(), skip.end(), rel) != skip.end()) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink(ec)) out[rel] = "link:" + fs::read_symlink(it->path(), ec).string();
    else if (it->is_regular_file(ec))
      out[rel] = contentHash(readFile(it->path())) + " mode " +
                 std::to_string(static_cast<unsigned>(it->symlink_status(ec).permissions()));
    else out[rel] = "dir";
  }
  return out;
}

}  // namespace portcheck::test

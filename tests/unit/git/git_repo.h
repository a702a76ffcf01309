#pragma once
// A real git repository in a temporary folder, driven with the git CLI, for the hook tests.
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace portcheck::test {

// A shell command's outcome; `out` holds stdout and stderr, merged.
using Shell = CommandResult;

inline std::string singleQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` with /bin/sh in `cwd`, isolated from the user's git setup (HOME is `home`, no
// system configuration) and from the GIT_* variables of an enclosing hook.
inline Shell shell(const std::string& command, const std::filesystem::path& cwd, const std::filesystem::path& home) {
  std::string full = "cd " + singleQuoted(cwd.string()) +
                     " && env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE -u GIT_COMMON_DIR -u GIT_OBJECT_DIRECTORY"
                     " -u GIT_PREFIX HOME=" + singleQuoted(home.string()) + " XDG_CONFIG_HOME=" +
                     singleQuoted(home.string()) +
                     " GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=T"
                     " GIT_COMMITTER_EMAIL=t@example.com NO_COLOR=1 sh -c " + singleQuoted(command) + " 2>&1";
  return runShell(full);
}

class GitRepo {
 public:
  GitRepo() : root_(dir_.path() / "repo"), home_(dir_.path() / "home") {
    std::filesystem::create_directories(root_);
    std::filesystem::create_directories(home_);
    git("init -q -b main .");
  }
  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path temp() const { return dir_.path(); }

  // Runs a shell command in `cwd` (the repository by default) with the isolated environment.
  Shell run(const std::string& command, const std::filesystem::path& cwd = {}) const {
    return shell(command, cwd.empty() ? root_ : cwd, home_);
  }
  // Runs `git ARGS`; fails the test when git fails and `must_succeed`.
  Shell git(const std::string& args, bool must_succeed = true) const {
    Shell r = run("git " + args);
    if (must_succeed) EXPECT_EQ(r.exit_code, 0) << "git " << args << "\n" << r.out;
    return r;
  }
  // Runs the built port-check binary with ARGS in `cwd` (the repository by default).
  Shell portCheck(const std::string& args, const std::filesystem::path& cwd = {}) const {
    return run(singleQuoted(PORTCHECK_BINARY) + " " + args, cwd);
  }

  void write(const std::string& rel, const std::string& content) const {
    std::filesystem::path p = root_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
  }
  std::string read(const std::string& rel) const { return readFile(root_ / rel); }
  std::string head() const { return run("git rev-parse -q --verify HEAD").out; }
  // What the index holds for a path.
  std::string staged(const std::string& rel) const { return run("git show " + singleQuoted(":" + rel)).out; }
  // Number of commits on HEAD (0 before the first commit).
  int commits() const {
    Shell r = run("git rev-list --count HEAD 2>/dev/null || echo 0");
    return std::stoi(r.out);
  }

 private:
  TempDir dir_;
  std::filesystem::path root_;
  std::filesystem::path home_;
};

// Sources used across the hook tests: valid Python, and a file with a syntax error (DSL001). Kept
// minimal so that no other DSL rule has anything to say about them.
inline const char* kGood = "value = 1\n";
inline const char* kBad = "value = (1\n";
inline const char* kGolden = "reference = 1\n";

}  // namespace portcheck::test

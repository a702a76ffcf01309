#pragma once
// Helpers for tests: temporary folders, files, running the CLI in-process and as a binary.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "app/commands.h"
#include "parse/syntax_tree.h"

namespace portcheck::test {

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("port-check-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& rel) const { return path_ / rel; }

  // Writes `content` to `rel`, creating parent folders.
  std::filesystem::path write(const std::string& rel, const std::string& content) const {
    std::filesystem::path p = path_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

 private:
  std::filesystem::path path_;
};

inline std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string sourceDir() { return PORTCHECK_SOURCE_DIR; }
inline std::string fixturesDir() { return PORTCHECK_FIXTURES_DIR; }

// Calls visit(node) for every node under `root`, itself first, in document order (one tree cursor).
template <class Visit>
void forEachNode(TSNode root, Visit&& visit) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    visit(ts_tree_cursor_current_node(&c));
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    bool moved = false;
    while (!moved && !(moved = ts_tree_cursor_goto_next_sibling(&c)))
      if (!ts_tree_cursor_goto_parent(&c)) break;
    if (!moved) break;
  }
  ts_tree_cursor_delete(&c);
}
// The stand-in compiler interpreter (tests/fixtures/compile/fake-python.sh).
inline std::string fakeCompilePython() { return fixturesDir() + "/compile/fake-python.sh"; }

// Result of a command run in-process.
struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs a command function in-process with string streams and an empty environment (plus `env`).
template <typename Fn>
CommandResult runInProcess(Fn&& fn, std::vector<std::pair<std::string, std::string>> env = {}) {
  std::ostringstream out, err;
  auto getenv = [env](const char* name) -> const char* {
    for (const auto& [k, v] : env)
      if (k == name) return v.c_str();
    return nullptr;
  };
  Io io{out, err, false, getenv};
  CommandResult r;
  r.exit_code = fn(io);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// Runs `command` through /bin/sh; captures its standard output and exit status (-1 when it did not exit).
inline CommandResult runShell(const std::string& command) {
  CommandResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Runs the built port-check binary through /bin/sh in `cwd`; captures stdout (and stderr when asked).
inline CommandResult runBinary(const std::string& args, const std::filesystem::path& cwd, bool merge_stderr = false) {
  return runShell("cd '" + cwd.string() + "' && " + std::string(PORTCHECK_BINARY) + " " + args +
                  (merge_stderr ? " 2>&1" : " 2>/dev/null"));
}

// CommonOptions for a workspace folder.
inline CommonOptions optionsIn(const std::filesystem::path& cwd, Format format = Format::Text) {
  CommonOptions o;
  o.cwd = cwd;
  o.format = format;
  o.jobs = 2;
  return o;
}

}  // namespace portcheck::test

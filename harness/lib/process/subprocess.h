#pragma once
// Runs a child process in its own process group with a controlled environment, collects its merged
// stdout+stderr without deadlock, and enforces a timeout by killing the whole group.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace portcheck {

struct ProcessSpec {
  std::vector<std::string> argv;              // argv[0] is looked up on PATH (of `env`) when it has no '/'
  std::map<std::string, std::string> env;     // the child's complete environment
  std::filesystem::path cwd;                  // empty = inherit
  std::chrono::milliseconds timeout{300'000};
  std::size_t max_output = 16u << 20;         // bytes kept of the output; the middle is dropped past that
  std::chrono::milliseconds kill_grace{1000}; // SIGTERM -> SIGKILL delay on timeout
  const std::atomic<bool>* cancel = nullptr;  // set by the caller (an MCP cancellation): kill the group as on timeout
  // A second phase with a time limit of its own: when `phase_marker` first appears at the start of an
  // output line, the deadline becomes that moment plus `phase_timeout` (a compile chained to a run:
  // each gets its own limit). Empty: one deadline, `timeout`.
  std::string phase_marker;
  std::chrono::milliseconds phase_timeout{0};
};

struct ProcessResult {
  bool started = false;
  std::string spawn_error;   // why it did not start (e.g. "cannot run 'python9': No such file or directory")
  int exit_code = -1;        // exit status when it exited normally, else -1
  int signal = 0;            // terminating signal when killed by one (also set after a timeout kill)
  bool timed_out = false;
  bool cancelled = false;    // `cancel` was set before the child ended; its group was killed
  std::string output;        // merged stdout+stderr (raw bytes)
  std::size_t output_dropped = 0;  // bytes dropped from the middle because of max_output
  double seconds = 0;
  bool phase_reached = false;  // `phase_marker` was seen; a timeout after it is the second phase's
};

ProcessResult runProcess(const ProcessSpec& spec);

// The current process environment as a map.
std::map<std::string, std::string> currentEnvironment();

// "SIGSEGV (segmentation fault)" for 11; "signal 77" when unknown.
std::string signalDescription(int signal);

// Resolves `program` on the PATH of `env` (or returns it when it contains '/'); nullopt when not found.
std::optional<std::filesystem::path> findExecutable(const std::string& program,
                                                    const std::map<std::string, std::string>& env);

}  // namespace portcheck

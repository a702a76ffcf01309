#include "process/subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

extern char** environ;

namespace portcheck {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::map<std::string, std::string> currentEnvironment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    auto eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return env;
}

std::string signalDescription(int sig) {
  const char* name = nullptr;
  switch (sig) {
    case SIGSEGV: name = "SIGSEGV"; break;
    case SIGABRT: name = "SIGABRT"; break;
    case SIGBUS: name = "SIGBUS"; break;
    case SIGFPE: name = "SIGFPE"; break;
    case SIGILL: name = "SIGILL"; break;
    case SIGKILL: name = "SIGKILL"; break;
    case SIGTERM: name = "SIGTERM"; break;
    case SIGINT: name = "SIGINT"; break;
    case SIGHUP: name = "SIGHUP"; break;
    case SIGPIPE: name = "SIGPIPE"; break;
    case SIGQUIT: name = "SIGQUIT"; break;
    case SIGTRAP: name = "SIGTRAP"; break;
    case SIGXCPU: name = "SIGXCPU"; break;
    default: break;
  }
  const char* what = strsignal(sig);
  std::string out = name ? name : "signal " + std::to_string(sig);
  if (name && what) out += std::string(" (") + what + ")";
  return out;
}

namespace {

bool isExecutableFile(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// Keeps the first and the last `max/2` bytes of what the child writes.
class OutputBuffer {
 public:
  explicit OutputBuffer(std::size_t max) : half_(std::max<std::size_t>(max / 2, 1)) {}
  void append(const char* data, std::size_t n) {
    std::size_t to_head = std::min(n, half_ - std::min(half_, head_.size()));
    head_.append(data, to_head);
    if (to_head == n) return;
    tail_.append(data + to_head, n - to_head);
    if (tail_.size() > 2 * half_) {
      std::size_t cut = tail_.size() - half_;
      dropped_ += cut;
      tail_.erase(0, cut);
    }
  }
  std::string take(std::size_t& dropped) {
    if (tail_.size() > half_) {
      dropped_ += tail_.size() - half_;
      tail_.erase(0, tail_.size() - half_);
    }
    dropped = dropped_;
    if (dropped_ == 0) return head_ + tail_;
    return head_ + "\n[port-check: " + std::to_string(dropped_) + " bytes of output dropped here]\n" + tail_;
  }

 private:
  std::size_t half_;
  std::string head_, tail_;
  std::size_t dropped_ = 0;
};

void decodeStatus(int status, ProcessResult& r) {
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
    r.exit_code = -1;
  }
}

}  // namespace

std::optional<fs::path> findExecutable(const std::string& program, const std::map<std::string, std::string>& env) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) {
    if (isExecutableFile(program)) return fs::path(program);
    return std::nullopt;
  }
  auto it = env.find("PATH");
  std::string path = it != env.end() ? it->second : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
    if (isExecutableFile(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

ProcessResult runProcess(const ProcessSpec& spec) {
  ProcessResult r;
  auto started = Clock::now();
  if (spec.argv.empty()) {
    r.spawn_error = "no program to run";
    return r;
  }
  auto exe = findExecutable(spec.argv[0], spec.env);
  if (!exe) {
    r.spawn_error = "cannot run '" + spec.argv[0] + "': not found" +
                    (spec.argv[0].find('/') == std::string::npos ? " on PATH" : " or not executable");
    return r;
  }

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    r.spawn_error = std::string("cannot create a pipe: ") + strerror(errno);
    return r;
  }

  std::vector<std::string> env_strings;
  env_strings.reserve(spec.env.size());
  for (const auto& [k, v] : spec.env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp, argv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = spec.argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t empty, defaults;
  sigemptyset(&empty);
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD}) sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);  // its own process group, so a timeout kills everything it started
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, exe->c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    r.spawn_error = "cannot run '" + spec.argv[0] + "'" +
                    (spec.cwd.empty() ? std::string() : " in " + spec.cwd.string()) + ": " + strerror(rc);
    return r;
  }
  r.started = true;
  int fd = fds[0];
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);

  OutputBuffer buffer(spec.max_output);
  auto deadline = started + spec.timeout;
  // The second phase's marker is looked for at line starts in what arrives, across chunk boundaries.
  std::string recent = "\n";
  auto watchPhase = [&](const char* data, std::size_t n) {
    if (spec.phase_marker.empty() || r.phase_reached) return;
    recent.append(data, n);
    const std::string needle = "\n" + spec.phase_marker;
    if (recent.find(needle) != std::string::npos) {
      r.phase_reached = true;
      deadline = Clock::now() + spec.phase_timeout;
      return;
    }
    if (recent.size() > needle.size()) recent.erase(0, recent.size() - needle.size());
  };
  bool pipe_open = true, reaped = false, group_killed = false;
  std::optional<Clock::time_point> reaped_at, term_sent_at;
  char chunk[65536];

  auto killGroup = [&](int sig) {
    if (::kill(-pid, sig) != 0 && errno == ESRCH && !reaped) ::kill(pid, sig);
  };

  while (pipe_open || !reaped) {
    auto now = Clock::now();
    if (!r.timed_out && !r.cancelled && now >= deadline && !reaped) {
      r.timed_out = true;
      killGroup(SIGTERM);
      term_sent_at = now;
    }
    if (!r.timed_out && !r.cancelled && spec.cancel && spec.cancel->load() && !reaped) {
      r.cancelled = true;
      killGroup(SIGTERM);
      term_sent_at = now;
    }
    if (term_sent_at && !group_killed && now - *term_sent_at >= spec.kill_grace) {
      killGroup(SIGKILL);
      group_killed = true;
    }
    // The child is gone but something it started still holds the pipe: give it a moment, then end it.
    if (reaped && pipe_open && reaped_at && !group_killed && now - *reaped_at >= std::chrono::milliseconds(500)) {
      ::kill(-pid, SIGKILL);
      group_killed = true;
    }
    if (reaped && pipe_open && reaped_at && now - *reaped_at >= std::chrono::seconds(3)) break;  // give up draining

    if (pipe_open) {
      auto wait = std::chrono::milliseconds(100);
      if (!r.timed_out && !r.cancelled) wait = std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) +
                                                  std::chrono::milliseconds(1));
      struct pollfd p {fd, POLLIN, 0};
      int n = ::poll(&p, 1, static_cast<int>(std::max<long long>(wait.count(), 0)));
      if (n > 0) {
        for (;;) {
          ssize_t got = ::read(fd, chunk, sizeof chunk);
          if (got > 0) {
            buffer.append(chunk, static_cast<std::size_t>(got));
            watchPhase(chunk, static_cast<std::size_t>(got));
            continue;
          }
          if (got == 0) pipe_open = false;
          else if (errno == EINTR) continue;
          else if (errno != EAGAIN && errno != EWOULDBLOCK) pipe_open = false;
          break;
        }
      } else if (n < 0 && errno != EINTR) {
        pipe_open = false;
      }
    }
    if (!reaped) {
      int status = 0;
      // Once the output is closed the child is about to exit: block briefly instead of spinning.
      pid_t w = ::waitpid(pid, &status, WNOHANG);
      if (w == 0 && !pipe_open) {
        ::usleep(2000);
        w = ::waitpid(pid, &status, WNOHANG);
      }
      if (w == pid) {
        decodeStatus(status, r);
        reaped = true;
        reaped_at = Clock::now();
      } else if (w < 0 && errno != EINTR) {
        reaped = true;
        reaped_at = Clock::now();
      }
    }
  }
  ::close(fd);
  if (!reaped) {  // only reachable when draining gave up; never leave a zombie
    int status = 0;
    ::kill(-pid, SIGKILL);
    if (::waitpid(pid, &status, 0) == pid) decodeStatus(status, r);
  }
  r.output = buffer.take(r.output_dropped);
  r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return r;
}

}  // namespace portcheck

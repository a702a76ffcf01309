#pragma once
// Real cache servers for the shared cache tests, started on loopback in temporary folders on a
// free port: redis-server (no persistence) and nginx with the WebDAV module's PUT (nginx-light).
// A test skips, naming the missing binary, when one is not installed (scripts/bootstrap.sh adds them).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

extern char** environ;

namespace portcheck::test {

// The program on PATH or in /usr/sbin and /usr/bin (nginx lives in /usr/sbin, often off a user's PATH).
inline std::optional<std::filesystem::path> findServerBinary(const std::string& name) {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string d; std::getline(ss, d, ':');) dirs.push_back(d);
  }
  dirs.insert(dirs.end(), {"/usr/sbin", "/usr/bin", "/sbin"});
  for (const std::string& d : dirs) {
    std::filesystem::path p = std::filesystem::path(d) / name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return std::nullopt;
}

// A loopback port nothing listens on (bound then released).
inline int freeLoopbackPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  int port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

inline bool loopbackAccepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

// A server process of the test: started with argv, stopped (SIGKILL) by kill() or on destruction.
class LoopbackServer {
 public:
  LoopbackServer() = default;
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;
  ~LoopbackServer() { kill(); }

  // False when it did not start listening on `port` within 5 s.
  bool start(const std::vector<std::string>& argv, int port) {
    port_ = port;
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    if (::posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    if (pid_ < 0) return false;
    for (int i = 0; i < 100; ++i) {
      if (loopbackAccepts(port)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

  int port() const { return port_; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

// redis-server on a free loopback port, no persistence, its folder in `dir`.
inline std::optional<std::string> startRedis(LoopbackServer& server, const std::filesystem::path& dir,
                                             std::string& skip) {
  auto bin = findServerBinary("redis-server");
  if (!bin) {
    skip = "redis-server is not installed (Debian package redis-server; scripts/bootstrap.sh installs it)";
    return std::nullopt;
  }
  int port = freeLoopbackPort();
  std::filesystem::create_directories(dir);
  if (!server.start({bin->string(), "--port", std::to_string(port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", "--enable-debug-command", "yes", "--dir", dir.string(), "--daemonize", "no"},
                    port)) {
    skip = "redis-server did not start on 127.0.0.1:" + std::to_string(port);
    return std::nullopt;
  }
  return "redis://127.0.0.1:" + std::to_string(port);
}

// nginx serving <dir>/store with dav_methods PUT on a free loopback port; entries land as files.
inline std::optional<std::string> startNginxDav(LoopbackServer& server, const std::filesystem::path& dir,
                                                std::string& skip) {
  auto bin = findServerBinary("nginx");
  if (!bin) {
    skip = "nginx is not installed (Debian package nginx-light, with the WebDAV module; scripts/bootstrap.sh installs it)";
    return std::nullopt;
  }
  int port = freeLoopbackPort();
  std::filesystem::create_directories(dir / "store");
  std::filesystem::create_directories(dir / "tmp");
  std::ostringstream conf;
  conf << (::geteuid() == 0 ? "user root;\n" : "") << "daemon off;\nmaster_process off;\nworker_processes 1;\n"
       << "pid " << (dir / "nginx.pid").string() << ";\nerror_log " << (dir / "error.log").string() << ";\n"
       << "events { worker_connections 64; }\nhttp {\n  access_log off;\n"
       << "  client_body_temp_path " << (dir / "tmp").string() << ";\n"
       << "  proxy_temp_path " << (dir / "tmp").string() << ";\n  fastcgi_temp_path " << (dir / "tmp").string()
       << ";\n  uwsgi_temp_path " << (dir / "tmp").string() << ";\n  scgi_temp_path " << (dir / "tmp").string() << ";\n"
       << "  server {\n    listen 127.0.0.1:" << port << ";\n    root " << (dir / "store").string() << ";\n"
       << "    client_max_body_size 64m;\n"
       << "    location / { dav_methods PUT; create_full_put_path on; dav_access user:rw; }\n  }\n}\n";
  std::ofstream(dir / "nginx.conf") << conf.str();
  if (!server.start({bin->string(), "-p", dir.string(), "-e", (dir / "error.log").string(), "-c",
                     (dir / "nginx.conf").string()},
                    port)) {
    skip = "nginx did not start on 127.0.0.1:" + std::to_string(port) + ": " + readFile(dir / "error.log");
    return std::nullopt;
  }
  return "http://127.0.0.1:" + std::to_string(port) + "/cache/";
}

// A loopback listener that accepts connections and never answers: a store that hangs.
class SilentServer {
 public:
  SilentServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    ::listen(fd_, 16);  // the kernel completes the handshakes; nothing is ever read or answered
  }
  ~SilentServer() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace portcheck::test

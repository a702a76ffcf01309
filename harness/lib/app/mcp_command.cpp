#include <signal.h>

#include <atomic>
#include <istream>

#include "app/commands.h"
#include "mcp/mcp_server.h"

namespace portcheck {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void stopServer(int) { g_stop = true; }

}  // namespace

int runMcp(const CommonOptions& options, const McpOptions& mcp, std::istream& in, const Io& io) {
  mcp::ServerOptions server;
  server.base = options;
  server.max_message = mcp.max_message;
  for (const std::string& r : mcp.roots) {
    std::filesystem::path p(r);
    server.roots.push_back(p.is_absolute() ? p : options.cwd / p);
  }
  // SIGTERM / SIGINT cancel the running calls (their compilers and simulators are killed) before exit;
  // a client that closed its end must not kill the server with SIGPIPE mid-write.
  struct sigaction stop {};
  stop.sa_handler = stopServer;
  sigemptyset(&stop.sa_mask);
  sigaction(SIGTERM, &stop, nullptr);
  sigaction(SIGINT, &stop, nullptr);
  signal(SIGPIPE, SIG_IGN);
  server.stop = &g_stop;
  return mcp::serve(in, io.out, io.err, server);
}

}  // namespace portcheck

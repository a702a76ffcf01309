#pragma once
// `port-check mcp`: a Model Context Protocol server over stdio (JSON-RPC 2.0, one message a line).
// Dual-era (protocol_revision.h): revision 2026-07-28 without a handshake (server/discover, the revision
// in each request's _meta), and the handshake revisions 2025-11-25 back to 2024-11-05. Tool calls run on
// their own threads, so a call can be cancelled (notifications/cancelled kills its compiler or simulator
// and it gets no response) and reports progress (notifications/progress, when the call carries a
// progressToken). Every path argument must lie inside the server's roots (--root, else the folder it was
// started in); a legacy client that declares the deprecated roots capability gives them instead.
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <istream>
#include <ostream>
#include <vector>

#include "app/options.h"

namespace portcheck::mcp {

struct ServerOptions {
  CommonOptions base;                        // the options every tool call starts from
  std::vector<std::filesystem::path> roots;  // --root; default: the current folder
  std::size_t max_message = 4u << 20;        // bytes; a longer line is refused, not buffered
  const std::atomic<bool>* stop = nullptr;   // set on SIGTERM / SIGINT: cancel every running call and end
};

// Serves until `in` ends; `log` gets one line per problem worth a human's eye. Returns the exit status.
int serve(std::istream& in, std::ostream& out, std::ostream& log, const ServerOptions& options);

}  // namespace portcheck::mcp

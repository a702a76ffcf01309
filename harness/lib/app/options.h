#pragma once
// Options shared by every subcommand, and the result a command returns to the CLI.
#include <atomic>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "clangcheck/kernel_compile.h"
#include "core/platform.h"
#include "core/report.h"
#include "output/emitter.h"
#include "toolchain/toolchain.h"
#include "workspace/config.h"
#include "workspace/workspace.h"

namespace portcheck {

enum class FailOn { Error, Warning, Info, Never };
enum class ColorMode { Auto, Always, Never };

std::optional<FailOn> parseFailOn(std::string_view text);

// Exit statuses (docs/cli.md).
inline constexpr int kExitClean = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitToolError = 2;

struct CommonOptions {
  Format format = Format::Text;
  std::optional<std::string> output;       // --output FILE; stdout when absent
  std::optional<Platform> platform;        // --platform; config, then a2a3
  std::optional<FailOn> fail_on;           // --fail-on; config, then error
  std::optional<std::string> config;       // --config FILE
  int jobs = 0;                            // --jobs; 0 = hardware threads
  ColorMode color = ColorMode::Auto;
  std::string doc_base_url;                // --doc-base-url
  ToolchainOptions toolchain;              // --pypto, --python
  clangcheck::KernelCompileOptions kernel_compile;  // --pto-isa, --clang, --no-kernel-compile
  std::filesystem::path cwd;               // where relative paths are resolved
  std::optional<std::string> shard;        // --shard I/N of check, lint, verify (app/shard_option.h)
  const std::atomic<bool>* cancel = nullptr;        // set by an MCP cancellation: compiles and runs stop (TOOL006)
  std::function<void(const std::string&)> progress; // told as each program is compiled or run (MCP progress)
};

// Where a command writes. The CLI passes std::cout/std::cerr; tests pass string streams.
struct Io {
  std::ostream& out;
  std::ostream& err;
  bool out_is_terminal = false;
  std::function<const char*(const char*)> getenv;  // environment lookup (NO_COLOR, PYPTO_ROOT ...)
};

// What every command resolves first: workspace, configuration, platform, failing severity.
struct Session {
  Workspace workspace;
  Config config;
  Platform platform = Platform::A2A3;
  FailOn fail_on = FailOn::Error;
  std::vector<Diagnostic> config_problems;  // TOOL004
  Toolchain toolchain;
};

Session openSession(const CommonOptions& options, const Io& io);

// The lowest severity that makes the exit status 1; nullopt for never.
std::optional<Severity> failingSeverity(FailOn fail_on);

// 2 when port-check itself failed (a TOOL error), else 1 when a finding is at or above fail_on, else 0.
int exitCodeFor(const Report& report, FailOn fail_on);

// Writes a command's output to --output (atomically, relative to the working folder) or to io.out;
// false, said on io.err, when the file cannot be written.
bool writeCommandOutput(const std::string& text, const CommonOptions& options, const Io& io);

// Fills run metadata, finalizes, emits to --output or io.out and returns the exit status.
int emitAndExit(Report& report, const Session& session, const CommonOptions& options, const Io& io);
// emitAndExit in two steps, for commands that add to a complete report (the attempt ledger):
// configuration problems, run metadata, finalize; then emit and return the exit status.
void completeReport(Report& report, const Session& session);
int emitCompleted(const Report& report, const Session& session, const CommonOptions& options, const Io& io);

}  // namespace portcheck

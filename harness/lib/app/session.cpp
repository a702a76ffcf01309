#include "app/options.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <ostream>
#include <system_error>

#include "core/atomic_file.h"
#include "lint/stage_suppressions.h"
#include "rules/catalogue.h"
#include "store/shared_tier.h"

namespace portcheck {

namespace fs = std::filesystem;

std::optional<FailOn> parseFailOn(std::string_view t) {
  if (t == "error") return FailOn::Error;
  if (t == "warning") return FailOn::Warning;
  if (t == "info") return FailOn::Info;
  if (t == "never") return FailOn::Never;
  return std::nullopt;
}

namespace {

// The shared cache tier of this run: port-check.json's "cache" section, with PORTCHECK_CACHE_REMOTE
// in place of cache.remote when set (empty: no remote). A bad variable is TOOL004, as a bad file is.
void setUpSharedCache(Session& s, const Io& io) {
  store::SharedCacheSettings settings;
  settings.timeout = std::chrono::milliseconds(s.config.cache.timeout_ms);
  settings.max_local_bytes = s.config.cache.max_local_bytes;
  std::optional<std::string> remote = s.config.cache.remote;
  const char* env = io.getenv ? io.getenv("PORTCHECK_CACHE_REMOTE") : nullptr;
  if (env) remote = std::string(env);
  if (remote && !remote->empty()) {
    std::string error;
    if (std::optional<store::RemoteUrl> url = store::parseRemoteUrl(*remote, error)) {
      settings.remote = std::move(*url);
    } else if (env) {  // the file's value was reported by parseConfig
      Diagnostic d = makeDiagnostic("TOOL004", "PORTCHECK_CACHE_REMOTE", 0, 0, "PORTCHECK_CACHE_REMOTE: " + error);
      d.severity = Severity::Error;
      s.config_problems.push_back(std::move(d));
    }
  }
  store::configureSharedCache(settings);
  // Commands that end without emitting a report (tune, mcp) still flush and count at exit.
  static const bool registered = [] {
    std::atexit([] {
      for (const std::string& note : store::finishSharedCache()) std::cerr << "port-check: note: " << note << "\n";
    });
    return true;
  }();
  (void)registered;
}

}  // namespace

Session openSession(const CommonOptions& options, const Io& io) {
  Session s;
  s.workspace = Workspace::discover(options.cwd);
  std::optional<fs::path> explicit_config;
  std::string display = "port-check.json";
  if (options.config) {
    fs::path p = fs::path(*options.config);
    explicit_config = p.is_absolute() ? p : options.cwd / p;
    display = s.workspace.relative(*explicit_config);
  }
  ConfigLoad load = loadConfig(s.workspace.root, explicit_config, display);
  s.config = std::move(load.config);
  s.config_problems = std::move(load.problems);
  s.platform = options.platform.value_or(s.config.platform.value_or(Platform::A2A3));
  if (options.fail_on) s.fail_on = *options.fail_on;
  else if (s.config.fail_on) s.fail_on = parseFailOn(*s.config.fail_on).value_or(FailOn::Error);
  s.toolchain = detectToolchain(s.workspace.root, options.toolchain, io.getenv);
  setUpSharedCache(s, io);
  return s;
}

std::optional<Severity> failingSeverity(FailOn fail_on) {
  switch (fail_on) {
    case FailOn::Error: return Severity::Error;
    case FailOn::Warning: return Severity::Warning;
    case FailOn::Info: return Severity::Info;
    case FailOn::Never: break;
  }
  return std::nullopt;
}

int exitCodeFor(const Report& report, FailOn fail_on) {
  const std::optional<Severity> failing_severity = failingSeverity(fail_on);
  bool tool_error = false, failing = false;
  for (const Diagnostic& d : report.diagnostics) {
    if (d.source == Stage::Tool && d.severity == Severity::Error) tool_error = true;
    failing |= failing_severity && d.severity >= *failing_severity;
  }
  if (tool_error) return kExitToolError;
  return failing ? kExitFindings : kExitClean;
}

namespace {

bool useColor(const CommonOptions& options, const Io& io) {
  if (options.format != Format::Text || options.output) return false;
  if (options.color == ColorMode::Always) return true;
  if (options.color == ColorMode::Never) return false;
  const char* no_color = io.getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return io.out_is_terminal;
}

}  // namespace

bool writeCommandOutput(const std::string& text, const CommonOptions& options, const Io& io) {
  if (!options.output) {
    io.out << text;
    return true;
  }
  fs::path p = fs::path(*options.output);
  if (!p.is_absolute()) p = options.cwd / p;
  std::string error;
  if (writeFileAtomically(p, text, error)) return true;
  io.err << "port-check: error: " << error << "\n";
  return false;
}

void completeReport(Report& report, const Session& session) {
  report.append(session.config_problems);
  report.run.tool_version = PORTCHECK_VERSION;
  report.run.catalogue_version = Catalogue::builtin().version();
  report.run.platform = std::string(toString(session.platform));
  report.run.toolchain = session.toolchain.describeFor(session.workspace.root);
  applyInlineSuppressions(report.diagnostics, session.workspace.root);
  report.finalize();
}

int emitAndExit(Report& report, const Session& session, const CommonOptions& options, const Io& io) {
  completeReport(report, session);
  return emitCompleted(report, session, options, io);
}

int emitCompleted(const Report& report, const Session& session, const CommonOptions& options, const Io& io) {
  for (const std::string& note : store::finishSharedCache()) io.err << "port-check: note: " << note << "\n";
  EmitOptions eo;
  eo.color = useColor(options, io);
  eo.doc_base_url = options.doc_base_url;
  eo.failing_severity = failingSeverity(session.fail_on);
  eo.exit_code = exitCodeFor(report, session.fail_on);
  if (!writeCommandOutput(emitReport(report, options.format, eo), options, io)) return kExitToolError;
  return eo.exit_code;
}

}  // namespace portcheck

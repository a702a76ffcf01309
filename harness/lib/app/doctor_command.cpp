// port-check doctor (docs/doctor.md).
#include <chrono>

#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "doctor/doctor_checks.h"
#include "doctor/doctor_probes.h"
#include "doctor/doctor_report.h"
#include "doctor/op_coverage.h"
#include "doctor/self_test.h"
#include "process/interrupt_flag.h"
#include "process/subprocess.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

constexpr int kDefaultSelfTestTimeoutSeconds = 600;

}  // namespace

int runDoctor(const CommonOptions& options, const DoctorOptions& doctor_options, const Io& io) {
  std::optional<doctor::Level> asked = doctor::parseLevel(doctor_options.level);
  if (!asked) {
    io.err << "port-check: error: --level must be passes, kernels or simulator, got '" << doctor_options.level << "'\n";
    return kExitToolError;
  }
  if (options.format != Format::Text && options.format != Format::Json) {
    io.err << "port-check: error: doctor prints text or json\n";
    return kExitToolError;
  }
  Session session = openSession(options, io);

  // On the CLI Ctrl-C kills the running probe's process group and the report says so; over MCP the
  // call's cancellation does the same.
  std::optional<InterruptFlag> ctrl_c;
  if (!options.cancel) ctrl_c.emplace();
  const std::atomic<bool>* cancel = options.cancel ? options.cancel : ctrl_c->flag();

  doctor::ProbeSettings probe;
  probe.environment = currentEnvironment();
  probe.cache_root = cacheRoot(session, options, doctor_options.cache_dir);
  probe.timeout = std::chrono::seconds(doctor_options.probe_timeout_seconds.value_or(doctor::kDefaultProbeTimeoutSeconds));
  probe.cancel = cancel;
  doctor::ToolchainFacts facts = doctor::gatherFacts(session.toolchain, probe);

  doctor::DoctorReport report;
  report.tool_version = PORTCHECK_VERSION;
  report.platform = std::string(toString(session.platform)) + "sim";
  report.asked = *asked;
  report.checks = doctor::judge(facts);
  report.reached = doctor::reachedLevel(report.checks);
  report.interrupted = facts.interrupted;

  if (doctor_options.run) {
    if (report.interrupted) {
      report.self_test_skipped = "interrupted";
    } else if (report.reached != doctor::Level::Simulator) {
      report.self_test_skipped = "the simulator level is not reached; fix what is MISSING above first";
    } else {
      CompileOptions compile;
      compile.cache_dir = doctor_options.cache_dir;
      DriverSettings settings = compileDriverSettings(session, options, compile);
      settings.timeout = std::chrono::seconds(doctor_options.timeout_seconds.value_or(kDefaultSelfTestTimeoutSeconds));
      settings.cancel = cancel;
      std::string error;
      std::optional<fs::path> script = installAdapter(settings.cache_root, error);
      if (!script) {
        io.err << "port-check: error: " << error << "\n";
        return kExitToolError;
      }
      settings.adapter_script = *script;
      report.self_test = doctor::runSelfTest(settings, session.platform);
      report.self_test_ran = true;
      report.at_risk = doctor::portsAtRisk(session.workspace.root, script->parent_path() / "selftest", report.self_test);
    }
  }

  std::string text = options.format == Format::Json ? doctor::doctorJson(report) : doctor::doctorText(report);
  if (!writeCommandOutput(text, options, io)) return kExitToolError;
  if (report.interrupted) return kExitToolError;
  return report.healthy() ? kExitClean : kExitFindings;
}

}  // namespace portcheck

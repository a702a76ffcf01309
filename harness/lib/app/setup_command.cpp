// port-check setup (docs/doctor.md, "Setting up"): a virtual environment with what PyPI offers, the Debian
// packages (only as root with --apt), and the steps left for the user's own checkouts.
#include <unistd.h>

#include <chrono>

#include "app/commands.h"
#include "core/text.h"
#include "doctor/setup_plan.h"
#include "process/subprocess.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kQuotedLines = 12;  // of a failed command's output

std::string tail(const std::string& output) {
  std::vector<std::string_view> lines = splitLines(output);
  std::size_t from = lines.size() > kQuotedLines ? lines.size() - kQuotedLines : 0;
  std::string out;
  for (std::size_t i = from; i < lines.size(); ++i) out += "    " + std::string(lines[i]) + "\n";
  return out;
}

}  // namespace

int runSetup(const CommonOptions& options, const SetupOptions& setup, const Io& io) {
  if (setup.venv.empty()) {
    io.err << "port-check: error: setup needs --venv DIR (a virtual environment outside the workspace)\n";
    return kExitToolError;
  }
  const bool root = ::geteuid() == 0;
  if (setup.apt && !root) {
    io.err << "port-check: error: --apt installs Debian packages with apt-get and needs root; run it as root, or "
              "leave --apt out to see the packages\n";
    return kExitToolError;
  }
  Session session = openSession(options, io);
  doctor::SetupInputs in;
  in.venv = fs::absolute(options.cwd.empty() ? fs::path(setup.venv) : options.cwd / setup.venv).lexically_normal();
  in.python = session.toolchain.python;
  std::error_code ec;
  in.venv_exists = fs::exists(in.venv / "bin" / "python", ec);
  in.apt = setup.apt;
  in.root = root;
  if (session.toolchain.found) in.pypto = session.toolchain.pypto_root;
  doctor::SetupPlan plan = doctor::planSetup(in);

  io.out << "port-check setup: " << in.venv.string() << (setup.dry_run ? " (dry run: nothing is run)" : "") << "\n\n";
  bool failed = false;
  std::map<std::string, std::string> env = currentEnvironment();
  for (const doctor::SetupCommand& c : plan.commands) {
    io.out << (setup.dry_run ? "would " : "") << c.what << ":\n  $ " << doctor::shellLine(c.argv) << "\n";
    if (setup.dry_run) continue;
    ProcessSpec spec;
    spec.argv = c.argv;
    spec.env = env;
    spec.timeout = std::chrono::hours(1);  // torch is a large download
    spec.cancel = options.cancel;
    ProcessResult r = runProcess(spec);
    if (r.started && !r.timed_out && r.signal == 0 && r.exit_code == 0) {
      io.out << "  done\n";
      continue;
    }
    std::string why = !r.started ? r.spawn_error
                      : r.timed_out ? "timed out"
                      : r.signal    ? "killed by " + signalDescription(r.signal)
                                    : "exit status " + std::to_string(r.exit_code);
    io.out << "  FAILED (" << why << ")\n" << tail(r.output);
    failed = true;
    break;
  }
  if (!plan.install_debian) {
    io.out << "\nDebian packages it needs (install as root, or run `port-check setup --apt` as root):\n  $ "
           << doctor::shellLine([&] {
                std::vector<std::string> apt = {"apt-get", "install", "-y", "--no-install-recommends"};
                apt.insert(apt.end(), plan.debian_packages.begin(), plan.debian_packages.end());
                return apt;
              }())
           << "\n";
  }
  io.out << "\nWhat the registries do not offer (PyPI's pypto, ptoas and simpler are other projects or do not run: "
            "`port-check doctor` names them), from your own checkouts:\n";
  for (std::size_t i = 0; i < plan.remaining.size(); ++i) io.out << "\n" << i + 1 << ". " << plan.remaining[i] << "\n";
  return failed ? kExitFindings : kExitClean;
}

}  // namespace portcheck

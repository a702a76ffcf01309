#include "app/ray_jobs.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "compiler/compile_driver.h"
#include "compiler/compile_text.h"
#include "core/atomic_file.h"
#include "process/subprocess.h"

namespace portcheck {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string rayFileText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::string rayPython(const std::optional<std::string>& option, const std::function<const char*(const char*)>& getenv) {
  if (option && !option->empty()) return *option;
  if (const char* v = getenv ? getenv("PORTCHECK_RAY_PYTHON") : nullptr; v && *v) return v;
  fs::path cache;
  if (const char* x = getenv ? getenv("XDG_CACHE_HOME") : nullptr; x && *x) cache = x;
  else if (const char* h = getenv ? getenv("HOME") : nullptr; h && *h) cache = fs::path(h) / ".cache";
  std::error_code ec;
  if (!cache.empty()) {
    const fs::path venv = cache / "port-check" / "ray-venv" / "bin" / "python";
    if (fs::exists(venv, ec)) return venv.string();
  }
  return "python3";
}

std::vector<std::string> rayCommonArgs(const Session& session, const CommonOptions& options) {
  // The platform only when the driver's command line names one: eval without --platform verifies on both.
  std::vector<std::string> args = {"--color", "never"};
  if (options.platform) args.insert(args.end(), {"--platform", std::string(toString(*options.platform))});
  if (session.toolchain.found) {
    args.insert(args.end(), {"--pypto", session.toolchain.pypto_root.string(), "--python", session.toolchain.python});
  } else {
    if (options.toolchain.pypto) args.insert(args.end(), {"--pypto", *options.toolchain.pypto});
    if (options.toolchain.python) args.insert(args.end(), {"--python", *options.toolchain.python});
  }
  if (options.config) args.insert(args.end(), {"--config", fs::absolute(options.cwd / *options.config).string()});
  if (options.kernel_compile.pto_isa) args.insert(args.end(), {"--pto-isa", options.kernel_compile.pto_isa->string()});
  if (!options.kernel_compile.enabled) args.push_back("--no-kernel-compile");
  return args;
}

RayOutcome runRayJobs(const RaySubmission& submission, const std::vector<RayJob>& jobs) {
  RayOutcome outcome;
  std::string error;
  std::optional<fs::path> adapter = installAdapter(submission.cache_root, error);
  if (!adapter) {
    outcome.error = "cannot install the Ray driver script: " + error;
    return outcome;
  }
  std::error_code ec;
  const fs::path work_dir = submission.cache_root / "ray" / ("run-" + std::to_string(::getpid()));
  fs::create_directories(work_dir, ec);
  const fs::path spec_path = work_dir / "spec.json", result_path = work_dir / "result.json";
  fs::remove(result_path, ec);
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  json env = json::object();
  for (const auto& [name, value] : currentEnvironment()) env[name] = value;
  json list = json::array();
  for (const RayJob& j : jobs) list.push_back({{"id", j.id}, {"args", j.args}});
  const json spec = {{"address", submission.address}, {"port_check", self.string()}, {"cwd", submission.cwd.string()},
                     {"env", env}, {"max_retries", submission.max_retries}, {"num_cpus", 1}, {"jobs", list}};
  if (!writeFileAtomically(spec_path, spec.dump(1), error, true)) {
    outcome.error = "cannot write " + spec_path.string() + ": " + error;
    return outcome;
  }
  ProcessSpec p;
  p.argv = {submission.python, "-B", (adapter->parent_path() / "port_check_ray.py").string(), "--spec",
            spec_path.string(), "--result", result_path.string()};
  p.env = currentEnvironment();
  p.cwd = submission.cwd;
  p.timeout = submission.timeout;
  ProcessResult r = runProcess(p);
  outcome.seconds = r.seconds;
  const std::string result_text = rayFileText(result_path);
  fs::remove_all(work_dir, ec);  // the spec holds the driver's environment: not left in the cache
  // What the driver script said last before it stopped (its last non-blank lines).
  std::string said;
  for (const std::string& line : lastLines(logLines(r.output), 4)) said += (said.empty() ? "" : "\n") + line;
  const std::string where = "--ray-python / PORTCHECK_RAY_PYTHON (now " + submission.python + ")";
  if (!r.started) {
    outcome.error = "cannot run the Ray driver with " + r.spawn_error + "; point " + where +
                    " at a Python with ray (scripts/bootstrap.sh makes one, docs/scale-out.md)";
    return outcome;
  }
  switch (r.exit_code) {
    case 0: break;
    case 3:
      outcome.error = "Ray is not installed for " + submission.python + " (" + said +
                      "); install it (pip install 'ray[default]', scripts/bootstrap.sh pins one) or point " + where +
                      " at a Python that has it";
      return outcome;
    case 4:
      outcome.error = "no Ray cluster at '" + submission.address + "' (" + said +
                      "); start one (ray start --head) or give its address, docs/scale-out.md";
      return outcome;
    case 5: outcome.error = "jobs lost: " + said; return outcome;
    default:
      outcome.error = (r.timed_out ? "the Ray jobs took longer than the time allowed" : "the Ray driver failed") +
                      std::string(": ") + (said.empty() ? "no output" : said);
      return outcome;
  }
  json result = json::parse(result_text, nullptr, false);
  if (!result.is_object() || !result.contains("results") || result["results"].size() != jobs.size()) {
    outcome.error = "the Ray driver left no result for every job (" + result_path.string() + ")";
    return outcome;
  }
  for (const json& j : result["results"])
    outcome.results.push_back({j.value("id", ""), j.value("exit_code", -1), j.value("out", ""), j.value("err", ""),
                               j.value("node", "")});
  outcome.ok = true;
  return outcome;
}

}  // namespace portcheck

#include "golden/run_driver.h"

#include <fstream>
#include <sstream>

#include "compiler/content_hash.h"
#include "process/subprocess.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

std::string withSlash(std::string s) {
  if (!s.empty() && s.back() != '/') s += '/';
  return s;
}

std::string simName(Platform platform) { return std::string(toString(platform)) + "sim"; }

}  // namespace

fs::path simplerRoot(const std::map<std::string, std::string>& base, const Toolchain& toolchain) {
  if (auto it = base.find("SIMPLER_ROOT"); it != base.end() && !it->second.empty()) return it->second;
  if (std::error_code ec; fs::is_directory(toolchain.pypto_root / "runtime" / "simpler_setup", ec))
    return toolchain.pypto_root / "runtime";
  return {};
}

std::map<std::string, std::string> runEnvironment(const std::map<std::string, std::string>& base,
                                                  const Toolchain& toolchain) {
  std::map<std::string, std::string> env = adapterEnvironment(base, toolchain);
  fs::path simpler = simplerRoot(base, toolchain);
  std::vector<std::string> path = {(toolchain.pypto_root / "python").string()};
  if (!simpler.empty()) {
    path.push_back(simpler.string());
    if (std::error_code ec; fs::is_directory(simpler / "python", ec)) path.push_back((simpler / "python").string());
  }
  path.push_back(callerPythonPath(base));
  env["PYTHONPATH"] = searchPath(path);
  return env;
}

namespace {

// The record's identity, folders and path map; the result file's path.
fs::path startRecord(RunRecord& rec, const CompileTarget& target, Platform platform, const DriverSettings& settings) {
  rec.project = target.name;
  rec.source_root = target.source_root;
  rec.source_root_display = target.source_root_display;
  rec.display_file = target.display_file;
  rec.platform = simName(platform);
  rec.timeout = settings.timeout;

  fs::path work = runWorkDir(settings, target, platform);
  fs::path out = work / "out";
  rec.out_dir = out;
  std::error_code ec;
  fs::path rel = fs::relative(out, settings.workspace_root, ec);
  rec.out_dir_display = !ec && !rel.empty() && *rel.begin() != ".." ? rel.generic_string() : out.generic_string();

  auto addMap = [&](const fs::path& from, const std::string& to) {
    if (from.empty()) return;
    rec.path_map.emplace_back(withSlash(from.string()), withSlash(to));
    std::error_code e;
    fs::path canonical = fs::weakly_canonical(from, e);
    if (!e && canonical != from) rec.path_map.emplace_back(withSlash(canonical.string()), withSlash(to));
  };
  addMap(target.source_root, target.source_root_display);
  addMap(out, rec.out_dir_display);
  if (settings.toolchain.found) addMap(settings.toolchain.pypto_root, "<pypto>");
  if (!settings.adapter_script.empty()) addMap(settings.adapter_script.parent_path(), "<port-check-adapter>");
  // The shortest: a kernel imported from elsewhere in the workspace (pypto-lib/...) by its relative path.
  addMap(settings.workspace_root, "");
  return work / "result.json";
}

// The run's whole output beside its result (<run folder>/run.log), for a look after a hang or a crash:
// findings quote only its last lines.
void keepLog(RunRecord& rec) {
  const fs::path file = rec.out_dir.parent_path() / "run.log";
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << rec.log;
  if (out) rec.log_file_display = (fs::path(rec.out_dir_display).parent_path() / "run.log").generic_string();
}

void readResultFile(RunRecord& rec, const fs::path& result_file) {
  std::error_code ec;
  rec.result_file_exists = fs::is_regular_file(result_file, ec);
  if (!rec.result_file_exists) return;
  std::ifstream in(result_file, std::ios::binary);
  std::ostringstream ss;
  if (in.is_open()) ss << in.rdbuf();
  if (!in.is_open()) rec.result_error = "unreadable";
  else if (!parseRunResult(ss.str(), rec.result, rec.result_error)) rec.result = RunResult{};
}

}  // namespace

RunRecord runGoldenProcess(const CompileTarget& target, Platform platform, const DriverSettings& settings,
                           const std::filesystem::path& compiled_dir) {
  RunRecord rec;
  fs::path result_file = startRecord(rec, target, platform, settings);
  const fs::path& out = rec.out_dir;
  std::error_code ec;
  fs::remove_all(out, ec);
  fs::remove(result_file, ec);
  fs::create_directories(out, ec);
  if (ec) {
    rec.started = false;
    rec.spawn_error = "cannot create the run folder " + out.string() + ": " + ec.message();
    return rec;
  }

  ProcessSpec spec;
  spec.argv = {settings.toolchain.python, "-B", settings.adapter_script.string()};
  if (target.program_file)
    spec.argv.insert(spec.argv.end(), {"--program-file", target.program_file->string()});
  else
    spec.argv.insert(spec.argv.end(), {"--project", target.source_root.string()});
  spec.argv.insert(spec.argv.end(), {"--platform", simName(platform), "--out-dir", out.string(), "--result",
                                     result_file.string(), "--mode", "run", "--seed", std::to_string(kRunSeed)});
  // Frozen goldens (docs/contract.md §6): each case's inputs and expected outputs, kept across attempts.
  spec.argv.insert(spec.argv.end(), {"--frozen-dir", (settings.cache_root / "golden").string()});
  if (!compiled_dir.empty()) spec.argv.insert(spec.argv.end(), {"--compiled-dir", compiled_dir.string()});
  spec.env = runEnvironment(settings.environment, settings.toolchain);
  spec.cwd = target.source_root;
  spec.timeout = settings.timeout;
  spec.cancel = settings.cancel;

  ProcessResult p = runProcess(spec);
  rec.cancelled = p.cancelled;
  rec.seconds = p.seconds;
  rec.log = std::move(p.output);
  rec.exit_code = p.exit_code;
  rec.timed_out = p.timed_out;
  rec.signal = p.signal;
  if (!p.started) {
    rec.started = false;
    rec.spawn_error = p.spawn_error;
    return rec;
  }
  keepLog(rec);
  readResultFile(rec, result_file);
  return rec;
}

RunRecord chainedRunRecord(const CompileTarget& target, Platform platform, const DriverSettings& settings,
                           const ChainedRunProcess& process) {
  RunRecord rec;
  fs::path result_file = startRecord(rec, target, platform, settings);
  rec.timeout = process.timeout;
  rec.seconds = process.seconds;
  rec.log = process.log;
  rec.exit_code = process.exit_code;
  rec.timed_out = process.timed_out;
  rec.signal = process.signal;
  keepLog(rec);
  readResultFile(rec, result_file);
  return rec;
}

}  // namespace portcheck

#include "compiler/compile_driver.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compiler/content_hash.h"
#include "compiler/path_mapper.h"
#include "core/embedded_file.h"
#include "core/text.h"
#include "process/subprocess.h"
#include "rules/catalogue.h"
#include "store/workspace_paths.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kAdapterPrefix = "harness/adapter/";
constexpr const char* kAdapterScript = "port_check_adapter.py";

std::string readFile(const fs::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  ok = static_cast<bool>(in);
  if (!ok) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool writeFile(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out.flush());
}

std::string withSlash(std::string s) {
  if (!s.empty() && s.back() != '/') s += '/';
  return s;
}

std::string seconds(std::chrono::milliseconds ms) {
  auto s = ms.count() / 1000;
  return ms.count() % 1000 == 0 ? std::to_string(s) + " s" : std::to_string(ms.count()) + " ms";
}

// The last few non-blank lines of the log, for notes: valid UTF-8, no control characters.
std::string logTail(const std::string& raw, std::size_t n) {
  std::string log;
  for (char c : sanitizeUtf8(raw)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\t') continue;
    if (u == 0x7f) continue;
    log += c;
  }
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    lines.push_back(line);
  }
  std::size_t from = lines.size() > n ? lines.size() - n : 0;
  std::string out;
  for (std::size_t i = from; i < lines.size(); ++i) out += (out.empty() ? "" : "\n") + lines[i];
  return out;
}

// What an interrupted compile left in its output folder, or "" when it is empty or absent.
std::string describePartialOutput(const fs::path& out) {
  std::error_code ec;
  if (!fs::is_directory(out, ec)) return {};
  int dumps = 0, total = 0;
  std::string last_dump;
  int last_number = -1;
  for (fs::recursive_directory_iterator it(out, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    ++total;
    if (it->path().parent_path().filename() == "passes_dump" && it->path().extension() == ".py") {
      ++dumps;
      std::string name = it->path().filename().string();
      int number = std::atoi(name.c_str());
      if (number > last_number) {
        last_number = number;
        last_dump = name;
      }
    }
  }
  if (total == 0) return {};
  std::string what = std::to_string(total) + " file" + (total == 1 ? "" : "s");
  if (dumps > 0) what += ", " + std::to_string(dumps) + " pass dump" + (dumps == 1 ? "" : "s") + " (last: " + last_dump + ")";
  else what += ", no pass dumps";
  bool kernels = fs::is_directory(out / "kernels", ec), orch = fs::is_directory(out / "orchestration", ec);
  what += kernels ? ", kernels/" : ", no kernels/";
  what += orch ? ", orchestration/" : ", no orchestration/";
  if (!fs::exists(out / "compiled_meta.json", ec)) what += ", no compiled_meta.json";
  return what;
}

// The deepest `File "<path>", line N` frame of a Python traceback that lies under `root`.
std::optional<std::pair<fs::path, int>> userFrame(const std::string& traceback, const fs::path& root) {
  std::optional<std::pair<fs::path, int>> found;
  std::string root_text = withSlash(root.string());
  std::istringstream in(traceback);
  for (std::string line; std::getline(in, line);) {
    auto f = line.find("File \"");
    if (f == std::string::npos) continue;
    auto q = line.find('"', f + 6);
    if (q == std::string::npos) continue;
    std::string path = line.substr(f + 6, q - f - 6);
    auto l = line.find(", line ", q);
    if (l == std::string::npos) continue;
    int number = std::atoi(line.c_str() + l + 7);
    if (path.rfind(root_text, 0) == 0 && number > 0) found = std::make_pair(fs::path(path), number);
  }
  return found;
}

}  // namespace

std::string adapterContentHash() {
  HashBuilder h;
  h.add("adapter_version", kAdapterVersion);
  for (std::size_t i = 0; i < kResourceFilesCount; ++i) {
    const EmbeddedFile& f = kResourceFiles[i];
    std::string_view path = f.path;
    if (path.rfind(kAdapterPrefix, 0) != 0) continue;
    h.add(path, contentHash(f.bytes()));
  }
  return h.hex().substr(0, 16);
}

std::optional<fs::path> installAdapter(const fs::path& cache_root, std::string& error) {
  fs::path dir = cache_root / "adapter" / adapterContentHash();
  fs::path script = dir / kAdapterScript;
  std::error_code ec;
  if (fs::is_regular_file(script, ec)) return script;
  fs::create_directories(dir.parent_path(), ec);
  // Named per process and call: two threads of one process (tune's parallel compiles, the MCP server)
  // installing at once must not remove each other's folder.
  static std::atomic<unsigned> calls{0};
  fs::path tmp = dir.parent_path() /
                 (dir.filename().string() + ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(calls++));
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) {
    error = "cannot create " + tmp.string() + ": " + ec.message();
    return std::nullopt;
  }
  bool any = false;
  for (std::size_t i = 0; i < kResourceFilesCount; ++i) {
    const EmbeddedFile& f = kResourceFiles[i];
    std::string_view path = f.path;
    if (path.rfind(kAdapterPrefix, 0) != 0) continue;
    fs::path target = tmp / std::string(path.substr(kAdapterPrefix.size()));
    fs::create_directories(target.parent_path(), ec);
    if (!writeFile(target, f.bytes())) {
      error = "cannot write " + target.string();
      fs::remove_all(tmp, ec);
      return std::nullopt;
    }
    any = true;
  }
  if (!any) {
    error = "this port-check binary carries no compile adapter (harness/adapter/ was not embedded)";
    fs::remove_all(tmp, ec);
    return std::nullopt;
  }
  fs::rename(tmp, dir, ec);
  if (ec) {  // another port-check installed the same content first: use theirs
    fs::remove_all(tmp, ec);
    if (!fs::is_regular_file(script, ec)) {
      error = "cannot install the compile adapter under " + dir.string();
      return std::nullopt;
    }
  }
  return script;
}

std::string searchPath(const std::vector<std::string>& folders) {
  std::string out;
  for (const std::string& f : folders)
    if (!f.empty()) out += (out.empty() ? "" : ":") + f;
  return out;
}

std::string callerPythonPath(const std::map<std::string, std::string>& base) {
  auto it = base.find("PYTHONPATH");
  return it == base.end() ? std::string() : it->second;
}

std::map<std::string, std::string> adapterEnvironment(const std::map<std::string, std::string>& base,
                                                      const Toolchain& toolchain) {
  std::map<std::string, std::string> env = base;
  // PyPTO first, then whatever the caller's path holds (pypto-lib's root for its golden/ harness).
  env["PYTHONPATH"] = searchPath({(toolchain.pypto_root / "python").string(), callerPythonPath(base)});
  env["NO_COLOR"] = "1";
  env["PYTHONUNBUFFERED"] = "1";
  env["PYTHONDONTWRITEBYTECODE"] = "1";
  env.erase("FORCE_COLOR");
  env.erase("PYTHONSTARTUP");
  env.erase("PYTHONHOME");
  env.erase("PYTHONINSPECT");
  // PyPTO's parser hook raises on any PTO_BACKTRACE other than 0/1 instead of rendering the error.
  if (auto it = env.find("PTO_BACKTRACE"); it != env.end() && it->second != "0" && it->second != "1") env.erase(it);
  // The compiler picks its own output folder only when none is given; ours always is.
  env.erase("PYPTO_PROG_BUILD_DIR");
  return env;
}

fs::path treeRootOf(const CompileTarget& target, const fs::path& workspace_root) {
  return (target.tree_root.empty() ? workspace_root : target.tree_root).lexically_normal();
}

std::string safeFolderName(std::string_view name, std::string_view fallback) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return out.empty() ? std::string(fallback) : out;
}

namespace {

// <cache_root>/<stage>/<name>-<hash of the target's workspace-relative path>/<platform>/: the same in any
// checkout, so a compile replayed from another checkout's entry names this one's folder.
fs::path stageWorkDir(const DriverSettings& settings, const char* stage, const CompileTarget& target,
                      Platform platform) {
  const store::WorkspacePaths paths(settings.workspace_root);
  std::string key = paths.keyed(target.program_file ? *target.program_file : target.source_root);
  return settings.cache_root / stage /
         (safeFolderName(target.name, "program") + "-" + contentHash(key).substr(0, 10)) /
         std::string(toString(platform));
}

}  // namespace

fs::path compileWorkDir(const DriverSettings& settings, const CompileTarget& target, Platform platform) {
  return stageWorkDir(settings, "compile", target, platform);
}

fs::path runWorkDir(const DriverSettings& settings, const CompileTarget& target, Platform platform) {
  return stageWorkDir(settings, "run", target, platform);
}

bool readAdapterResult(const std::string& text, AdapterResult& r, std::string& error) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    error = std::string("not JSON (") + e.what() + ")";
    return false;
  }
  if (!j.is_object()) {
    error = "not a JSON object";
    return false;
  }
  if (!j.contains("status") || !j["status"].is_string()) {
    error = "no \"status\" string";
    return false;
  }
  auto str = [](const nlohmann::json& v) -> std::string {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return {};
    return v.dump();
  };
  r = AdapterResult{};
  r.present = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    std::string v = str(it.value());
    if (k == "status") r.status = v;
    else if (k == "exception_type") r.exception_type = v;
    else if (k == "exception_message") r.exception_message = v;
    else if (k == "traceback") r.traceback = v;
    else if (k == "output_dir") r.output_dir = v;
    else if (k == "program") r.program = v;
    else r.extra[k] = v;
  }
  return true;
}

std::vector<CompiledProgram> compiledPrograms(const AdapterResult& result, const std::string& log) {
  static constexpr std::string_view kMarker = "[port-check] compiling ";
  std::vector<CompiledProgram> programs;
  std::vector<std::pair<std::string, std::string>> marked;  // (name, folder) of each log line
  std::vector<std::string> parts(1);
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    std::string_view text(line);
    if (text.substr(0, kMarker.size()) == kMarker) {
      std::string_view rest = text.substr(kMarker.size());
      if (auto into = rest.rfind(" into "); into != std::string_view::npos) {
        marked.emplace_back(std::string(rest.substr(0, into)), std::string(rest.substr(into + 6)));
        if (marked.size() > 1) parts.emplace_back();
      }
    }
    parts.back() += line + "\n";
  }
  if (auto it = result.extra.find("programs"); result.present && it != result.extra.end()) {
    std::istringstream lines(it->second);
    for (std::string line; std::getline(lines, line);) {
      auto tab = line.find('\t');
      if (tab == std::string::npos) continue;
      programs.push_back({line.substr(0, tab), std::filesystem::path(line.substr(tab + 1)), {}});
    }
  } else if (!result.present) {
    for (const auto& [name, folder] : marked) programs.push_back({name, std::filesystem::path(folder), {}});
  }
  // Log parts go with the programs when the lines and the list agree; otherwise each gets the whole log.
  bool aligned = marked.size() == programs.size();
  for (std::size_t i = 0; i < programs.size() && aligned; ++i) aligned = marked[i].first == programs[i].name;
  for (std::size_t i = 0; i < programs.size(); ++i) programs[i].log = aligned ? parts[i] : log;
  return programs;
}

std::optional<ChainedRunProcess> splitChainedRun(std::string& log, const ProcessResult& process) {
  static constexpr std::string_view kMarker = kChainedRunMarker;
  std::size_t at = log.find(kMarker);
  if (at == std::string::npos || (at > 0 && log[at - 1] != '\n')) return std::nullopt;
  std::size_t end = log.find('\n', at);
  std::string line = log.substr(at, end == std::string::npos ? std::string::npos : end - at);
  double compile_seconds = std::strtod(line.c_str() + kMarker.size(), nullptr);
  ChainedRunProcess run;
  run.log = end == std::string::npos ? std::string() : log.substr(end + 1);
  run.exit_code = process.exit_code;
  run.signal = process.signal;
  run.timed_out = process.timed_out;
  run.seconds = std::max(0.0, process.seconds - compile_seconds);
  log.erase(at);
  return run;
}

namespace {
DriverOutcome runCompileProcessUnmapped(const CompileTarget& target, Platform platform, const DriverSettings& settings);
}  // namespace

DriverOutcome runCompileProcess(const CompileTarget& target, Platform platform, const DriverSettings& settings) {
  DriverOutcome o = runCompileProcessUnmapped(target, platform, settings);
  // Compiler-side absolute paths never reach a diagnostic.
  PathMapper mapper(o.record);
  for (Diagnostic& d : o.diagnostics) {
    d.message = mapper.mapText(d.message);
    for (DiagnosticNote& n : d.notes) n.message = mapper.mapText(n.message);
  }
  return o;
}

namespace {

DriverOutcome runCompileProcessUnmapped(const CompileTarget& target, Platform platform, const DriverSettings& settings) {
  DriverOutcome o;
  CompileRecord& rec = o.record;
  rec.project = target.name;
  rec.source_root = target.source_root;
  rec.source_root_display = target.source_root_display;

  const std::string who = target.name;
  auto diag = [&](std::string_view id, std::string message, std::string hint = {}, std::string file = {},
                  int line = 0) {
    Diagnostic d = makeDiagnostic(id, file.empty() ? target.display_file : file, line, 0, std::move(message),
                                  std::move(hint));
    o.diagnostics.push_back(std::move(d));
    return &o.diagnostics.back();
  };
  auto relative = [&](const fs::path& p) {
    std::error_code ec;
    fs::path rel = fs::relative(p, settings.workspace_root, ec);
    if (!ec && !rel.empty() && *rel.begin() != "..") return rel.generic_string();
    return p.generic_string();
  };

  fs::path work = compileWorkDir(settings, target, platform);
  fs::path out = work / "out";
  fs::path result_file = work / "result.json";
  rec.out_dir = out;
  rec.out_dir_display = relative(out);

  // Paths as the compiler prints them -> what the user sees. Longest prefixes win (PathMapper sorts).
  std::error_code ec;
  auto addMap = [&](const fs::path& from, const std::string& to) {
    if (from.empty()) return;
    rec.path_map.emplace_back(withSlash(from.string()), withSlash(to));
    fs::path canonical = fs::weakly_canonical(from, ec);
    if (!ec && canonical != from) rec.path_map.emplace_back(withSlash(canonical.string()), withSlash(to));
  };
  addMap(target.source_root, target.source_root_display);
  addMap(out, rec.out_dir_display);
  rec.workspace_root = treeRootOf(target, settings.workspace_root);
  rec.path_map.emplace_back(withSlash(rec.workspace_root.string()), "");  // the shortest: other maps win
  if (settings.toolchain.found) addMap(settings.toolchain.pypto_root, "<pypto>");
  if (!settings.adapter_script.empty()) addMap(settings.adapter_script.parent_path(), "<port-check-adapter>");

  fs::remove_all(out, ec);
  fs::remove(result_file, ec);
  fs::create_directories(work, ec);
  if (ec) {
    diag("COMP909", who + ": cannot create the compile folder " + work.string() + ": " + ec.message(),
         "choose a writable --cache-dir");
    return o;
  }

  ProcessSpec spec;
  spec.argv = {settings.toolchain.python, "-B", settings.adapter_script.string()};
  if (target.program_file) {
    spec.argv.insert(spec.argv.end(), {"--program-file", target.program_file->string()});
  } else {
    spec.argv.insert(spec.argv.end(), {"--project", target.source_root.string()});
  }
  spec.argv.insert(spec.argv.end(), {"--platform", std::string(toString(platform)) + "sim", "--out-dir", out.string(),
                                     "--result", result_file.string(), "--workspace", rec.workspace_root.string()});
  spec.env = adapterEnvironment(settings.environment, settings.toolchain);
  spec.cwd = target.source_root;
  spec.timeout = settings.timeout;
  spec.cancel = settings.cancel;
  // A port's run chained to its compile (ports only: a program file's __main__ decides what it compiles).
  const bool chain = settings.chained_run && !target.program_file;
  if (chain) {
    fs::path run = runWorkDir(settings, target, platform);
    fs::remove_all(run / "out", ec);
    fs::remove(run / "result.json", ec);
    fs::create_directories(run / "out", ec);
    if (!ec) {
      spec.argv.insert(spec.argv.end(), {"--then-run-out-dir", (run / "out").string(), "--then-run-result",
                                         (run / "result.json").string(), "--seed", "0", "--frozen-dir",
                                         (settings.cache_root / "golden").string()});
      spec.env = settings.chained_run->environment;
      // The compile has its limit; the run, from the adapter's marker on, its own.
      spec.phase_marker = std::string(kChainedRunMarker);
      spec.phase_timeout = settings.chained_run->timeout;
    }
  }

  ProcessResult p = runProcess(spec);
  if (chain) {
    if (std::optional<ChainedRunProcess> run = splitChainedRun(p.output, p)) {
      // The compile finished before the marker: how the process ended is the run's, not the compile's.
      run->timeout = settings.chained_run->timeout;
      p.seconds = std::max(0.0, p.seconds - run->seconds);
      p.exit_code = 0;
      p.timed_out = false;
      p.signal = 0;
      o.chained_run = std::move(run);
    }
  }
  o.seconds = p.seconds;
  rec.log = std::move(p.output);
  rec.exit_code = p.exit_code;
  rec.timed_out = p.timed_out;
  rec.signal = p.signal;

  if (p.cancelled) {  // nothing read, nothing cached: the next call compiles from the start
    diag("TOOL006", who + ": the compile was cancelled; its process group was killed and nothing was cached",
         "call it again when the result is wanted");
    return o;
  }
  if (!p.started) {
    diag("COMP909", who + ": the compiler could not be started: " + p.spawn_error,
         "point port-check at a Python interpreter with --python EXE or PYPTO_PYTHON");
    return o;
  }

  bool result_exists = fs::is_regular_file(result_file, ec);
  std::string result_error;
  if (result_exists) {
    bool ok = false;
    std::string text = readFile(result_file, ok);
    if (!ok || !readAdapterResult(text, rec.adapter, result_error)) {
      rec.adapter = AdapterResult{};
      if (!ok) result_error = "unreadable";
    }
  }
  const AdapterResult& a = rec.adapter;
  std::string partial = describePartialOutput(out);
  std::string tail = logTail(rec.log, 6);
  auto addTail = [&](Diagnostic* d) {
    if (!tail.empty()) d->notes.push_back({"", 0, 0, "last output lines:\n" + tail});
  };

  if (p.timed_out) {
    Diagnostic* d = diag("COMP901",
                         who + ": the compile did not finish within " + seconds(spec.timeout) +
                             "; its process group was killed",
                         "look for a loop the compiler unrolls (pl.unroll, large pl.range bounds in pl.at) or "
                         "raise the limit with --timeout SECONDS");
    addTail(d);
  } else if (p.signal != 0 && !a.present) {
    Diagnostic* d = diag("COMP902",
                         who + ": the compiler process was killed by " + signalDescription(p.signal) +
                             " before it finished",
                         "this is a compiler (or Python extension) crash, not an error in the program: report it "
                         "to PyPTO with the program and the log (run with PTO_BACKTRACE=1 for a C++ trace)");
    addTail(d);
  } else if (!result_exists) {
    Diagnostic* d = diag("COMP903",
                         who + ": the compile process exited with status " + std::to_string(p.exit_code) +
                             " without writing its result",
                         "the adapter ends every run with a result file; something ended the process early "
                         "(os._exit in the program, an out-of-memory kill, a broken interpreter)");
    addTail(d);
  } else if (!a.present) {
    Diagnostic* d = diag("COMP904", who + ": the compile result is unreadable: " + result_error,
                         "the adapter and the interpreter disagree; check --python and rerun");
    addTail(d);
  }
  if (!partial.empty() && (p.timed_out || (p.signal != 0 && !a.present) || !a.present)) {
    diag("COMP905", who + ": the compile stopped part-way; its output folder " + rec.out_dir_display +
                        " is partial (" + partial + ")",
         "the figures read from it are incomplete; fix the failure above and compile again");
  }

  if (!a.present) {
    // Whatever the compiler managed to write may still hold SRAM figures; crashes and timeouts are
    // reported above, so the analysis adds none of its own for them.
    o.analyze = (p.timed_out || p.signal != 0) && !partial.empty();
    return o;
  }

  const std::string& status = a.status;
  auto extra = [&](const std::string& key) {
    auto it = a.extra.find(key);
    return it == a.extra.end() ? std::string() : it->second;
  };
  std::string exception = a.exception_type.empty() ? a.exception_message
                                                   : a.exception_type + ": " + a.exception_message;
  if (status == "ok" || status == "compile_error") {
    o.analyze = true;
    o.cacheable = !p.timed_out;
  } else if (status == "load_error") {
    std::string file;
    int line = 0;
    if (auto frame = userFrame(a.traceback, target.source_root)) {
      // Shown under the source root's display path: the root may be a staged copy (the hook).
      std::string rel = frame->first.lexically_normal().lexically_relative(target.source_root.lexically_normal()).generic_string();
      file = target.source_root_display.empty() ? rel : target.source_root_display + "/" + rel;
      line = frame->second;
    }
    Diagnostic* d = diag("COMP906", who + ": loading the program failed: " + exception,
                         target.program_file
                             ? "fix the error in the module, or put the folders it imports from on PYTHONPATH "
                               "(port-check keeps the caller's, after PyPTO's)"
                             : "fix the error in the module; port-check imports every top-level .py file of "
                               "pypto_src (golden.py first) before it compiles",
                         file, line);
    if (!a.traceback.empty()) d->notes.push_back({"", 0, 0, "traceback:\n" + logTail(a.traceback, 8)});
    o.cacheable = true;
  } else if (status == "no_program" || status == "ambiguous_program") {
    diag("COMP907", who + ": " + a.exception_message,
         status == "ambiguous_program"
             ? "set ENTRY = \"<name>\" in golden.py (or pass --entry) to say which program to compile"
             : "define one @pl.jit entry function or one @pl.program class in pypto_src (docs/compile-adapter.md)");
    o.cacheable = true;
  } else if (status == "spec_error") {
    diag("COMP908", who + ": the tensor specs for the @pl.jit entry are unusable: " + exception,
         target.program_file
             ? "call the entry from the file's __main__ (port-check compiles what that call compiles), or make "
               "build_tensor_specs() return one spec per entry parameter with defaults for its own parameters "
               "(docs/compile-adapter.md)"
             : "build_tensor_specs() (or generate_inputs()) in golden.py must return one spec per entry parameter, "
               "named like the parameters (docs/compile-adapter.md)");
    o.cacheable = true;
  } else if (status == "toolchain_error") {
    diag("COMP909",
         who + ": PyPTO cannot be imported by " + settings.toolchain.python + " from " +
             (settings.toolchain.pypto_root / "python").string() + ": " + exception,
         "build the PyPTO extension in the checkout and give an interpreter that has numpy and torch "
         "(--python EXE or PYPTO_PYTHON)");
  } else if (status == "interrupted") {
    diag("COMP903", who + ": the compile was interrupted (" + exception + ")", "run it again");
  } else {
    Diagnostic* d = diag("COMP904",
                         who + ": the compile adapter failed (status '" + status + "'" +
                             (exception.empty() ? "" : ": " + exception) + ")",
                         "this is a port-check bug: report it with the log below");
    addTail(d);
  }
  // The adapter compiled, but could not follow the file's __main__ to choose (docs/compile-adapter.md §1).
  if (std::string note = extra("choice_note"); !note.empty()) {
    diag("COMP910", who + ": " + note,
         "to compile one program, set ENTRY = \"<name>\" in the file; to compile what the author compiles, let "
         "`python " + (target.program_file ? target.program_file->filename().string() : std::string("program.py")) +
             " -p PLATFORM` run without a device (port-check follows the file's __main__ and dispatches nothing; "
             "docs/compile-adapter.md)");
  }
  return o;
}

}  // namespace

}  // namespace portcheck

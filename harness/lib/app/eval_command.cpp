// port-check eval: scores agents' attempts at the porting tasks of evals/tasks/ (docs/evals.md) with each
// task's own reference and contract, never the agent's golden: verify on a2a3sim and a5sim in a scratch
// workspace, then the device-time model against the task's naive form, then the attempt's ledger.
#include <chrono>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "app/commands.h"
#include "app/json_report_run.h"
#include "app/ray_jobs.h"
#include "core/elapsed.h"
#include "evals/eval_score.h"
#include "evals/eval_workspace.h"

namespace portcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Runs one command of this binary in-process on the scratch workspace and reads its JSON report.
template <typename Run>
json reportOf(const CommonOptions& base, const fs::path& scratch, const Io& io, Run&& run) {
  CommonOptions o = base;
  o.cwd = scratch;
  o.fail_on = FailOn::Never;
  JsonReportRun r = runForJsonReport(run, o, io.getenv);
  return r.report.is_object() ? r.report : json::object();
}

evals::EvalResult scoreOne(const evals::EvalTask& task, const fs::path& attempt, const std::string& display,
                           const Session& session, const CommonOptions& options, const CompileOptions& compile,
                           const EvalOptions& eval, const Io& io) {
  auto start = std::chrono::steady_clock::now();
  evals::EvalResult none;
  none.task = task.name;
  none.kind = task.kind;
  none.attempt = display;
  none.verdict = "failed";
  std::error_code ec;
  if (!fs::is_directory(attempt / "pypto_src", ec)) {
    none.first_failing = "sources";
    none.reason = "no attempt: " + display + " has no pypto_src/";
    none.checks.push_back({"sources", "fail", none.reason});
    return none;
  }
  const fs::path cache = compile.cache_dir ? fs::absolute(*compile.cache_dir)
                                           : session.workspace.root / ".port-check-cache";
  // Named by the process, or by the Ray driver (--scratch-id), so its workers' compiles are the driver's replays.
  const fs::path scratch = cache / "eval" / (task.name + "-" + eval.scratch_id.value_or(std::to_string(::getpid())));
  evals::ScratchWorkspace ws = evals::makeScratchWorkspace(task, attempt, scratch, session.workspace.root / "pypto-lib");
  if (ws.root.empty()) {
    none.verdict = "error";
    none.first_failing = "workspace";
    none.reason = ws.error;
    return none;
  }
  CommonOptions base = options;
  if (session.toolchain.found) {  // the scratch folder has no ../pypto of its own
    base.toolchain.pypto = session.toolchain.pypto_root;
    base.toolchain.python = session.toolchain.python;
  }
  CompileOptions scoring = compile;
  scoring.cache_dir = cache.string();
  scoring.no_ledger = true;
  const std::vector<Platform> platforms = verifyPlatforms(options);
  json verify = reportOf(base, ws.root, io, [&](const CommonOptions& o, const Io& sub) {
    return runVerify(o, scoring, {"projects/" + task.name}, sub);
  });
  ReportOptions report_options;
  report_options.cache_dir = cache.string();
  report_options.html = (ws.root / "report.html").string();
  for (const auto& [name, value] : task.assume) report_options.assume.push_back(name + "=" + std::to_string(value));
  json report = reportOf(base, ws.root, io, [&](const CommonOptions& o, const Io& sub) {
    CommonOptions on = o;
    on.platform = Platform::A2A3;  // the speed check is on a2a3 (the device the measured times are of)
    return runReport(on, report_options, {"projects/" + task.name, "projects/" + task.name + "_naive"}, sub);
  });
  std::vector<std::string> names;
  for (Platform p : platforms) names.emplace_back(toString(p));
  evals::EvalResult r = evals::scoreAttempt(task, display, verify, report, names);
  r.ledger = evals::readAttemptLedger(attempt);
  r.seconds = secondsSince(start);
  if (!eval.keep) fs::remove_all(scratch, ec);
  return r;
}

}  // namespace

int runEval(const CommonOptions& options, const CompileOptions& compile, const EvalOptions& eval, const Io& io) {
  Session session = openSession(options, io);
  auto resolve = [&](const std::string& p) { return fs::path(p).is_absolute() ? fs::path(p) : options.cwd / p; };
  // (task folder, attempt folder, attempt as shown)
  std::vector<std::tuple<fs::path, fs::path, std::string>> jobs;
  if (eval.set) {
    const fs::path tasks = resolve(*eval.set);
    if (!eval.attempts) {
      io.err << "port-check: error: eval --set needs --attempts DIR (one folder per task, named as the task)\n";
      return kExitToolError;
    }
    for (const fs::path& t : evals::taskFolders(tasks)) {
      const std::string name = t.filename().string();
      jobs.emplace_back(t, resolve(*eval.attempts) / name, *eval.attempts + "/" + name);
    }
    if (jobs.empty()) {
      io.err << "port-check: error: no task under " << *eval.set << " (a task is a folder with task.json, docs/evals.md)\n";
      return kExitToolError;
    }
  } else {
    if (eval.task.empty() || eval.attempt.empty()) {
      io.err << "port-check: error: eval needs TASK ATTEMPT (evals/tasks/<name> and the attempt's project folder), "
                "or --set DIR --attempts DIR\n";
      return kExitToolError;
    }
    jobs.emplace_back(resolve(eval.task), resolve(eval.attempt), eval.attempt);
  }

  std::vector<evals::EvalResult> results;
  EvalOptions scoring = eval;
  if (eval.ray) {
    // Each attempt scored by `port-check eval` as a Ray task first, in the scratch folder the driver names; the
    // loop below then scores it again here, its compiles and passed runs replayed from the cache.
    const fs::path cache = fs::absolute(compile.cache_dir ? fs::path(*compile.cache_dir)
                                                          : session.workspace.root / ".port-check-cache");
    scoring.scratch_id = "ray-" + std::to_string(::getpid());
    RaySubmission ray;
    ray.address = *eval.ray;
    ray.python = rayPython(eval.ray_python, io.getenv);
    ray.cwd = options.cwd;
    ray.cache_root = cache;
    std::vector<RayJob> ray_jobs;
    for (const auto& [task_dir, attempt, display] : jobs) {
      RayJob job{display, rayCommonArgs(session, options)};
      job.args.insert(job.args.end(), {"--format", "json", "eval", task_dir.string(), attempt.string(), "--cache-dir",
                                       cache.string(), "--scratch-id", *scoring.scratch_id});
      if (compile.timeout_seconds) job.args.insert(job.args.end(), {"--timeout", std::to_string(*compile.timeout_seconds)});
      if (compile.no_cache) job.args.push_back("--no-cache");
      ray_jobs.push_back(std::move(job));
    }
    if (options.progress) options.progress("scoring " + std::to_string(ray_jobs.size()) + " attempt(s) on Ray at " + ray.address);
    RayOutcome o = runRayJobs(ray, ray_jobs);
    if (!o.ok) {
      io.err << "port-check: error: --ray: " << o.error << "\n";
      return kExitToolError;
    }
  }
  for (const auto& [task_dir, attempt, display] : jobs) {
    evals::LoadedTask loaded = evals::loadEvalTask(task_dir);
    if (!loaded.task) {
      io.err << "port-check: error: " << loaded.error << "\n";
      return kExitToolError;
    }
    if (options.progress) options.progress("scoring " + display + " against task " + loaded.task->name);
    results.push_back(scoreOne(*loaded.task, attempt, display, session, options, compile, scoring, io));
  }

  int passed = 0, errors = 0;
  json list = json::array();
  for (const evals::EvalResult& r : results) {
    passed += r.verdict == "passed";
    errors += r.verdict == "error";
    list.push_back(evals::toJson(r));
  }
  std::string text;
  if (options.format == Format::Json) {
    json doc = {{"schema", "port-check-eval/1"},
                {"tool", {{"version", PORTCHECK_VERSION}}},
                {"toolchain", session.toolchain.describeFor(session.workspace.root)},
                {"results", list},
                {"summary", {{"attempts", results.size()}, {"passed", passed}, {"errors", errors}}}};
    text = doc.dump(2) + "\n";
  } else if (options.format == Format::Text) {
    text = evals::toText(results);
  } else {
    io.err << "port-check: error: eval writes text or json\n";
    return kExitToolError;
  }
  if (!writeCommandOutput(text, options, io)) return kExitToolError;
  if (errors > 0) return kExitToolError;
  return passed == static_cast<int>(results.size()) ? kExitClean : kExitFindings;
}

}  // namespace portcheck

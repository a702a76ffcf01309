// port-check: the thin command line over libportcheck. Parses arguments, calls a command, exits.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <tuple>

#include "app/commands.h"
#include "man_page.h"

#ifdef PORTCHECK_WITH_MIMALLOC
#include <mimalloc.h>
#endif

using namespace portcheck;

namespace {

void addCommonOptions(CLI::App& app, CommonOptions& o, std::string& format, std::string& platform,
                      std::string& fail_on, std::string& color) {
  app.add_option("--format", format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit", "github"}))
      ->default_str("text");
  app.add_option("--output,-o", o.output, "Write the report to FILE instead of standard output");
  app.add_option("--platform", platform, "Target platform (a2a3 or a5; default from config, else a2a3)")
      ->check(CLI::IsMember({"a2a3", "a2a3sim", "a5", "a5sim"}));
  app.add_option("--fail-on", fail_on, "Exit 1 when a finding is at or above this severity (default error)")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  app.add_option("--config", o.config, "Configuration file (default: port-check.json at the workspace root)");
  app.add_option("--jobs,-j", o.jobs, "Parallel workers (default: number of CPUs)")->check(CLI::Range(0, 256));
  app.add_option("--color", color, "Colour text output: auto (terminal and no NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--doc-base-url", o.doc_base_url, "Base URL that rule doc links (docs/rules.md#id) are joined to");
  app.add_option("--pypto", o.toolchain.pypto, "PyPTO checkout (default: PYPTO_ROOT, else ../pypto)");
  app.add_option("--python", o.toolchain.python, "Python interpreter for the compiler (default: PYPTO_PYTHON, python3)");
  app.add_option("--pto-isa", o.kernel_compile.pto_isa,
                 "PTO-ISA checkout for the C++ kernel compile check (default: PTO_ISA_ROOT, ../pto-isa, the PyPTO "
                 "runtime's copy)");
  app.add_option("--clang", o.kernel_compile.clang, "clang used for the kernel compile check (default clang++-19)");
  app.add_flag("--no-kernel-compile{false}", o.kernel_compile.enabled, "Do not compile C++ kernels against PTO-ISA");
  app.add_option("--define,-D", o.kernel_compile.defines,
                 "A macro the C++ kernels' build defines (NAME or NAME=VALUE; -D __PTO_AUTO__ makes them AUTO-mode "
                 "kernels); repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  app.add_option("--compile-commands", o.kernel_compile.compile_commands,
                 "The kernels' compile_commands.json: their AUTO mode and include directories (default: "
                 "compile_commands.json or build/compile_commands.json at the workspace root)");
}

}  // namespace

int main(int argc, char** argv) {
#ifdef PORTCHECK_WITH_MIMALLOC
  // Freed pages stay committed for a second: with mimalloc's default (25 ms) a lint run gives memory back
  // between units and faults it in again for the next one; a long-lived server still returns it.
  mi_option_set(mi_option_decommit_delay, 1000);
#endif
  CLI::App app{"port-check: lint, compile and check PyPTO ports (projects/<name>/pypto_src) for Ascend NPUs"};
  app.name("port-check");
  app.formatter(std::make_shared<cli::HelpFormatter>());  // before the subcommands, which copy it
  app.require_subcommand(0, 1);
  app.footer("Exit status: 0 clean, 1 findings at or above --fail-on, 2 port-check could not do its job.\n"
             "Docs: man port-check, /usr/share/doc/port-check/ (docs/ in the source), rules: `port-check rules`.");

  CommonOptions options;
  std::error_code ec;
  options.cwd = std::filesystem::current_path(ec);
  std::string format = "text", platform, fail_on, color = "auto";
  bool version = false;
  std::string man_page_date;
  // Hidden (no group): the build writes the man page with it (packaging/CMakeLists.txt).
  app.add_option("--man-page", man_page_date, "Print the man page, dated DATE")->group("");
  app.add_flag("--version,-V", version, "Print the tool version, rule-catalogue version and detected toolchain");
  addCommonOptions(app, options, format, platform, fail_on, color);
  auto common = [&](CLI::App* sub) {
    addCommonOptions(*sub, options, format, platform, fail_on, color);
    return sub;
  };

  std::vector<std::string> paths;
  auto* lint = common(app.add_subcommand("lint", "Run the static rules on projects, pypto-lib programs or files"));
  lint->add_option("paths", paths, "Projects (projects/<name>), projects/, pypto-lib/ or files");
  GitChangeOptions lint_git;
  auto* staged = lint->add_flag("--staged", lint_git.staged,
                                "Lint the staged content (index vs HEAD) of files under hook.paths, read from git");
  lint->add_option("--changed-since", lint_git.changed_since,
                   "Lint what HEAD changed since its merge base with REV (CI), read from git")
      ->option_text("REV")
      ->excludes(staged);
  CacheOptions lint_cache;
  lint->add_option("--cache-dir", lint_cache.cache_dir,
                   "Folder of the lint cache (default: <workspace>/.port-check-cache; unchanged units are replayed)");
  lint->add_flag("--no-cache", lint_cache.no_cache, "Lint every unit afresh; do not read or write the lint cache");
  auto* check = common(app.add_subcommand("check", "Run every stage: lint, estimate, compile, run"));
  check->add_option("paths", paths, "Projects, projects/, pypto-lib/ or files")->required();
  auto* compile = common(app.add_subcommand("compile", "Compile ports with the real PyPTO compiler and read its output"));
  compile->add_option("paths", paths, "Projects, projects/, pypto-lib/ or program files");
  auto* run = common(app.add_subcommand("run", "Compile, run on the simulator and compare every output with the golden"));
  run->add_option("paths", paths, "Projects, projects/ or program files");
  auto* verify = common(app.add_subcommand(
      "verify", "Run each port's and pypto-lib block's correctness contract: every case and seed on a2a3sim and a5sim "
                "(docs/contract.md)"));
  verify->add_option("paths", paths, "Projects (projects/<name>, projects/) or pypto-lib blocks (pypto-lib/<block>, pypto-lib/)")
      ->required();
  VerifyOptions verify_options;
  verify->add_option("--mutants", verify_options.mutants,
                     "Also run up to N mutants of each port that passes (one store dropped or one operation "
                     "changed) through its contract on the first platform: one that passes is GOLD024")
      ->check(CLI::Range(1, 1000));
  for (CLI::App* sub : {lint, check, verify})
    sub->add_option("--shard", options.shard,
                    "Check only shard I of N (counted from 1): the projects and files whose workspace-relative path "
                    "hashes to it, so N CI jobs split one run (docs/scale-out.md)")
        ->option_text("I/N");
  EvalOptions eval_options;
  auto* eval = common(app.add_subcommand(
      "eval", "Score an agent's attempt at a porting task of evals/tasks/ with the task's own reference (docs/evals.md)"));
  eval->add_option("task", eval_options.task, "The task folder (evals/tasks/<name>, with task.json)");
  eval->add_option("attempt", eval_options.attempt, "The attempt's project folder (with pypto_src/)");
  eval->add_option("--set", eval_options.set, "Score every task under DIR (with --attempts)")->option_text("DIR");
  eval->add_option("--attempts", eval_options.attempts, "Folder of attempts, one per task, named as the task")
      ->option_text("DIR");
  eval->add_flag("--keep", eval_options.keep, "Keep the scratch workspace under <cache-dir>/eval/");
  eval->add_option("--scratch-id", eval_options.scratch_id, "")->group("");  // a Ray job's scratch folder, named by its driver
  CompileOptions compile_options;
  check->add_flag("--run", compile_options.run, "Also run on the simulator and compare with the golden (docs/run-stage.md)");
  for (CLI::App* sub : {check, compile, run, verify, eval}) {
    sub->add_option("--timeout", compile_options.timeout_seconds,
                    "Seconds one compile (and one simulator run) may take before its process group is killed "
                    "(default: config compile.timeout, else 300; runs: run.timeout, else 600)")
        ->check(CLI::Range(1, 86400));
    sub->add_option("--cache-dir", compile_options.cache_dir,
                    "Compile cache and output folders (default: <workspace>/.port-check-cache)");
    sub->add_flag("--no-cache", compile_options.no_cache,
                  "Always run the compiler and lint afresh; do not replay a cached result");
    sub->add_flag("--no-ledger", compile_options.no_ledger,
                  "Do not record this attempt in the projects' ledgers (projects/<name>/.port-check/ledger.jsonl)");
  }
  CacheCommandOptions cache_options;
  auto* cache = common(app.add_subcommand("cache", "Show the cache counters per tier (local, remote) or clear the local cache"));
  cache->add_option("action", cache_options.action, "stats or clear")
      ->required()
      ->check(CLI::IsMember({"stats", "clear"}));
  cache->add_option("--cache-dir", cache_options.cache_dir, "The cache root (default: <workspace>/.port-check-cache)");
  LedgerOptions ledger_options;
  auto* ledger = common(app.add_subcommand(
      "ledger", "Print the attempts check, compile and run recorded for a project, with the loop rules"));
  ledger->add_option("project", ledger_options.project, "The project (projects/<name>)")->required();
  ledger->add_flag("--markdown", ledger_options.markdown, "Print the table as Markdown, for PORTING.md");
  ledger->add_option("--last", ledger_options.last, "Show only the newest N attempts")->check(CLI::Range(1, 100000));
  auto* report = common(app.add_subcommand("report", "Print the SRAM table and advice, write an HTML report"));
  report->add_option("paths", paths, "Projects, projects/, pypto-lib/ or program files");
  ReportOptions report_options;
  report->add_option("--html", report_options.html,
                     "Write the HTML page to FILE (default: <cache-dir>/report/report.html)");
  report->add_option("--assume", report_options.assume,
                     "NAME=VALUE: the value a name the source leaves to run time takes (a length read from a "
                     "tensor, a dynamic dimension), for the schedule's trip and block counts and the device time; "
                     "repeatable (docs/perf-model.md)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  report->add_option("--cache-dir", report_options.cache_dir,
                     "Compile cache the actual figures are read from (a compile of the same sources), and folder "
                     "of the default HTML page (default: <workspace>/.port-check-cache)");
  RulesOptions rules_options;
  auto* rules = common(app.add_subcommand("rules", "List the rules, or explain one"));
  rules->add_option("id", rules_options.id, "Rule ID to explain, e.g. PROJ001");
  rules->add_flag("--markdown", rules_options.markdown, "Print the rule reference as Markdown (docs/rules.md)");
  NewOptions new_options;
  auto* create = common(app.add_subcommand("new", "Scaffold projects/NAME from templates/"));
  create->add_option("name", new_options.name, "Project name (lower-case letters, digits, '_' and '-')")->required();
  create->add_option("--kind", new_options.kind, "What is being ported: op (one operator) or model (several)")
      ->check(CLI::IsMember({"op", "model"}))
      ->default_str("op");
  create->add_flag("--kernel", new_options.kernel, "Also add the AUTO-mode C++ incore kernel template to pypto_src/kernels/");
  auto* hook = common(app.add_subcommand("hook", "Install, uninstall or run the git pre-commit hook"));
  HookOptions hook_options;
  hook->add_option("args", hook_options.words, "install | uninstall | run");
  hook->add_flag("--force", hook_options.force, "install: replace a pre-commit hook port-check did not write (kept as a backup)");
  hook->add_flag("--chain", hook_options.chain, "install: keep an existing pre-commit hook and run it before port-check");
  DoctorOptions doctor_options;
  auto* doctor = common(app.add_subcommand("doctor", "Check the toolchain level by level and say what fixes what is missing"));
  doctor->add_option("--level", doctor_options.level, "Level asked for: passes, kernels or simulator (default simulator)")
      ->check(CLI::IsMember({"passes", "kernels", "simulator"}));
  doctor->add_flag("--run", doctor_options.run,
                   "Also run a self-test of vector, cube and mixed kernels (FP32, BF16, INT8) on the simulator");
  doctor->add_option("--cache-dir", doctor_options.cache_dir, "Folder of the probe and self-test files (default: "
                                                              "<workspace>/.port-check-cache)");
  doctor->add_option("--timeout", doctor_options.timeout_seconds, "Seconds one self-test run may take (default 600)")
      ->check(CLI::Range(1, 86400));
  doctor->add_option("--probe-timeout", doctor_options.probe_timeout_seconds,
                     "Seconds one probe (the interpreter, ptoas --version) may take; compiling the headers probe "
                     "gets four times that (default 30)")
      ->check(CLI::Range(1, 3600));
  SetupOptions setup_options;
  auto* setup = common(app.add_subcommand(
      "setup", "Install what PyPI offers toward the toolchain into a virtual environment and print the rest"));
  setup->add_option("--venv", setup_options.venv, "Virtual environment to make or complete (outside the workspace)")
      ->required();
  setup->add_flag("--apt", setup_options.apt, "Also apt-get install the MLIR 19 / clang 19 Debian packages (root only)");
  setup->add_flag("--dry-run", setup_options.dry_run, "Print the commands, run none");
  auto* tune = common(app.add_subcommand(
      "tune", "Search a port's tile sizes and loop shapes: screen with the SRAM estimate, compile, run, rank"));
  tune->add_option("paths", paths, "Projects (projects/<name>)");
  TuneOptions tune_options;
  tune->add_flag("--no-compile{false}", tune_options.compile, "Screen with the SRAM estimate only");
  tune->add_option("--max-compiles", tune_options.max_compiles, "Survivors compiled, best-ranked first (default 16)")
      ->check(CLI::Range(1, 256));
  tune->add_option("--timeout", tune_options.timeout_seconds, "Seconds one compile may take (default 300)")
      ->check(CLI::Range(1, 86400));
  tune->add_option("--cache-dir", tune_options.cache_dir, "Folder of the configurations' copies and the compile cache");
  tune->add_option("--run", tune_options.run_best, "Run the golden on the simulator for the best K that compile (default 0)")
      ->check(CLI::Range(0, 64));
  tune->add_option("--beam", tune_options.beam_width, "Beam width when the grid exceeds 256 configurations (default 4)")
      ->check(CLI::Range(1, 64));
  tune->add_flag("--apply", tune_options.apply, "Write the pick into the port's constants and record a ledger attempt");
  tune->add_option("--html", tune_options.html, "Write the plot and the ranked table to FILE");
  tune->add_option("--assume", tune_options.assume,
                   "NAME=VALUE: the value a name the source leaves to run time takes, so every configuration "
                   "gets an estimated device time to be ranked by; repeatable (as report --assume)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  tune->add_flag("--no-prune", tune_options.no_prune,
                 "Compile the configurations the estimate prunes as well (to measure what pruning saves)");
  tune->add_option("--only", tune_options.only,
                   "Evaluate this one configuration (NAME=VALUE,... for every knob, or current: the port as it is), "
                   "compiled and run as asked whatever the screen says: what each Ray job of --ray runs")
      ->option_text("CONFIG");
  for (auto [sub, ray, python] : {std::tuple{tune, &tune_options.ray, &tune_options.ray_python},
                                  std::tuple{eval, &eval_options.ray, &eval_options.ray_python}}) {
    sub->add_option("--ray", *ray,
                    "Run the compile-and-simulate jobs as tasks on the Ray cluster at ADDR (host:port of its head, or "
                    "auto); port-check stays the driver and replays their results from the cache (docs/scale-out.md)")
        ->option_text("ADDR|auto");
    sub->add_option("--ray-python", *python,
                    "Python with ray for --ray (default: PORTCHECK_RAY_PYTHON, else the venv scripts/bootstrap.sh "
                    "makes, ~/.cache/port-check/ray-venv, else python3)")
        ->option_text("PYTHON");
  }
  McpOptions mcp_options;
  auto* mcp = common(app.add_subcommand("mcp", "Serve the tools to coding agents over the Model Context Protocol (stdio)"));
  mcp->add_option("--root", mcp_options.roots,
                  "Folder tool calls may touch; relative paths resolve against the first (repeatable; default: the "
                  "current folder)");
  SkillsOptions skills_options;
  auto* skills = common(app.add_subcommand("skills", "Check or install the skill pack"));
  skills->require_subcommand(1);
  auto* skills_check = common(skills->add_subcommand("check", "Validate the skill pack (CI runs this)"));
  skills_check->add_option("pack", skills_options.pack, "Pack root holding skills/ and .claude-plugin/ (default: the workspace)");
  auto* skills_install = common(skills->add_subcommand("install", "Install the skills into DIR/.claude/skills"));
  skills_install->add_option("--target", skills_options.target, "Repository to install into")->required();
  skills_install->add_flag("--force", skills_options.force, "Replace installed skill files that were edited locally");
  skills_install->add_option("pack", skills_options.pack, "Pack root (default: the workspace, else the built-in pack)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitClean : kExitToolError;
  }

  options.format = *parseFormat(format);
  if (!platform.empty()) options.platform = parsePlatform(platform);
  if (!fail_on.empty()) options.fail_on = parseFailOn(fail_on);
  options.color = color == "always" ? ColorMode::Always : color == "never" ? ColorMode::Never : ColorMode::Auto;

  Io io{std::cout, std::cerr, isatty(STDOUT_FILENO) == 1, [](const char* name) { return std::getenv(name); }};
  try {
    if (version) return runVersion(options, io);
    if (!man_page_date.empty()) {
      std::cout << cli::manPage(app, PORTCHECK_VERSION, man_page_date);
      return kExitClean;
    }
    if (*lint && (lint_git.staged || !lint_git.changed_since.empty())) {
      if (options.shard) {
        std::cerr << "port-check: error: --shard splits the paths named; it does not combine with --staged or --changed-since\n";
        return kExitToolError;
      }
      return runLintChanges(options, lint_git, paths, io);
    }
    if (*lint && paths.empty()) {
      std::cerr << "port-check: error: lint needs PATH..., --staged or --changed-since REV\n";
      return kExitToolError;
    }
    if (*lint) return runLint(options, paths, io, lint_cache);
    if (*check) return runCheck(options, paths, io, compile_options);
    if (*compile) return runCompile(options, compile_options, paths, io);
    if (*run) return runRun(options, compile_options, paths, io);
    if (*verify) return runVerify(options, compile_options, paths, io, verify_options);
    if (*eval) return runEval(options, compile_options, eval_options, io);
    if (*rules) return runRules(options, rules_options, io);
    if (*create) return runNew(options, new_options, io);
    if (*skills_check) return runSkillsCheck(options, skills_options, io);
    if (*skills_install) return runSkillsInstall(options, skills_options, io);
    if (*hook) return runHook(options, hook_options, io);
    if (*report) return runReport(options, report_options, paths, io);
    if (*ledger) return runLedger(options, ledger_options, io);
    if (*cache) return runCache(options, cache_options, io);
    if (*doctor) return runDoctor(options, doctor_options, io);
    if (*setup) return runSetup(options, setup_options, io);
    if (*mcp) return runMcp(options, mcp_options, std::cin, io);
    if (*tune) return runTune(options, tune_options, paths, io);
    std::cout << app.help();
    return kExitToolError;
  } catch (const std::exception& e) {
    std::cerr << "port-check: internal error: " << e.what() << "\n";
    return kExitToolError;
  }
}

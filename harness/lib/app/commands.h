#pragma once
// The subcommands, callable from the CLI and from tests.
#include <string>
#include <vector>

#include "app/options.h"

namespace portcheck {

// --cache-dir and --no-cache: where the caches live (default <workspace>/.port-check-cache) and whether
// the lint stage may replay an unchanged unit's findings (lint/lint_cache.h).
struct CacheOptions {
  std::optional<std::string> cache_dir;
  bool no_cache = false;
};

// port-check lint PATH...: static rules over projects and files.
int runLint(const CommonOptions& options, const std::vector<std::string>& paths, const Io& io,
            const CacheOptions& cache = {});

// Options of the compile stage (port-check compile and check).
struct CompileOptions {
  std::optional<int> timeout_seconds;  // --timeout; config "compile.timeout"; else 300
  std::optional<std::string> cache_dir;  // --cache-dir; else <workspace>/.port-check-cache
  bool no_cache = false;                 // --no-cache: always compile (the result is still stored)
  bool run = false;                      // check --run: also the run stage (docs/run-stage.md)
  bool no_ledger = false;                // --no-ledger: do not record the attempt (docs/ledger.md)
};

// port-check check PATH...: every stage that can run (lint, then compile when the toolchain is found;
// with compile.run also the simulator run).
int runCheck(const CommonOptions& options, const std::vector<std::string>& paths, const Io& io,
             const CompileOptions& compile = {});

// port-check compile PATH...: projects and pypto-lib program files through the real PyPTO compiler
// (docs/compile-adapter.md): compiler findings, SRAM table; COMP9xx when the compile itself fails.
int runCompile(const CommonOptions& options, const CompileOptions& compile, const std::vector<std::string>& paths,
               const Io& io);

// port-check run PATH...: compile (cache) and run each port on the simulator matching --platform,
// comparing every output with golden.py (docs/run-stage.md): GOLD findings and per-output figures.
int runRun(const CommonOptions& options, const CompileOptions& compile, const std::vector<std::string>& paths,
           const Io& io);

// port-check verify PATH...: the correctness contract of each port (docs/contract.md): lint, then every
// case under every seed on each simulator (a2a3sim and a5sim, or --platform's).
struct VerifyOptions {
  std::size_t mutants = 0;  // --mutants N: the mutation check (GOLD024) with up to N mutants per port
};
int runVerify(const CommonOptions& options, const CompileOptions& compile, const std::vector<std::string>& paths,
              const Io& io, const VerifyOptions& verify = {});
// The platforms verify runs on: --platform's, else a2a3 and a5.
std::vector<Platform> verifyPlatforms(const CommonOptions& options);

// Options of port-check eval (docs/evals.md).
struct EvalOptions {
  std::string task;                     // evals/tasks/<name>
  std::string attempt;                  // the attempt's project folder (with pypto_src/)
  std::optional<std::string> set;       // --set DIR: every task under DIR ...
  std::optional<std::string> attempts;  // --attempts DIR: ... each scored against DIR/<task>
  bool keep = false;                    // --keep: leave the scratch workspace under <cache>/eval/
  std::optional<std::string> scratch_id;  // hidden --scratch-id: <cache>/eval/<task>-ID instead of the pid (Ray jobs)
  std::optional<std::string> ray;         // --ray ADDR|auto: each attempt scored as a Ray task (docs/scale-out.md)
  std::optional<std::string> ray_python;  // --ray-python: the interpreter with ray (else PORTCHECK_RAY_PYTHON, ...)
};
// port-check eval TASK ATTEMPT | --set DIR --attempts DIR: each attempt scored with its task's reference and
// contract on the simulators, its estimated device time against the task's naive form, and its ledger.
// Exit 0 when every attempt passed, 1 when one failed, 2 when one could not be judged.
int runEval(const CommonOptions& options, const CompileOptions& compile, const EvalOptions& eval, const Io& io);

struct LedgerOptions {
  std::string project;       // projects/<name>
  bool markdown = false;     // --markdown: the table as Markdown, for PORTING.md
  std::optional<int> last;   // --last N: only the newest N attempts
};
// port-check ledger PROJECT [--markdown] [--last N]: the attempts check, compile and run recorded for
// the project (docs/ledger.md): change, result, golden and SRAM per attempt, with the loop rules
// (LOOP) each attempt raised. Text, --format json or --markdown.
int runLedger(const CommonOptions& options, const LedgerOptions& ledger, const Io& io);

// port-check cache stats | clear [--cache-dir DIR]: the counters of the local and remote cache tiers
// (hits, misses, bytes; text or --format json), or remove the local entries (docs/shared-cache.md).
struct CacheCommandOptions {
  std::string action;                   // "stats" or "clear"
  std::optional<std::string> cache_dir;  // --cache-dir; else <workspace>/.port-check-cache
};
int runCache(const CommonOptions& options, const CacheCommandOptions& cache, const Io& io);

struct RulesOptions {
  std::string id;         // explain one rule
  bool markdown = false;  // print docs/rules.md
};
// port-check rules [ID] [--markdown]: the catalogue.
int runRules(const CommonOptions& options, const RulesOptions& rules, const Io& io);

// port-check --version: tool, catalogue and toolchain.
int runVersion(const CommonOptions& options, const Io& io);

// The rule reference as Markdown (docs/rules.md is generated from this), and one rule's section of it.
std::string rulesMarkdown();
struct RuleInfo;
std::string ruleMarkdown(const RuleInfo& rule);

struct SkillsOptions {
  std::string pack;     // pack root (skills/ + .claude-plugin/); default: the workspace root
  std::string target;   // install: DIR, skills go to DIR/.claude/skills
  bool force = false;   // install: replace locally edited skill files
};
// port-check skills check [PACK]: frontmatter, names, links, rule and template references, manifests,
// changelog, and the release rule (changed skills bumped since the last skills-vX.Y.Z tag).
int runSkillsCheck(const CommonOptions& options, const SkillsOptions& skills, const Io& io);
// port-check skills install --target DIR [--force] [PACK]: idempotent install into DIR/.claude/skills.
int runSkillsInstall(const CommonOptions& options, const SkillsOptions& skills, const Io& io);

struct NewOptions {
  std::string name;
  std::string kind = "op";  // op | model
  bool kernel = false;      // also copy the AUTO-mode C++ incore kernel template
};
// port-check new NAME [--kind op|model] [--kernel]: scaffold projects/NAME from templates/.
int runNew(const CommonOptions& options, const NewOptions& create, const Io& io);

struct HookOptions {
  std::vector<std::string> words;  // install | uninstall | run [FILE...]
  bool force = false;              // install: replace a foreign pre-commit hook (kept as a backup)
  bool chain = false;              // install: keep a foreign pre-commit hook and run it first
  std::string executable;          // install: the port-check the hook runs (default: this binary)
};
// port-check hook install [--force|--chain] | uninstall | run: the git pre-commit hook. `run` checks the
// staged blobs and exits 0 (commit), 1 (blocked by findings) or 2 (a tool error, when hook.on_tool_error
// is "block"; otherwise a tool error is reported and the commit proceeds).
int runHook(const CommonOptions& options, const HookOptions& hook, const Io& io);

struct GitChangeOptions {
  bool staged = false;        // --staged: the index against HEAD
  std::string changed_since;  // --changed-since REV: HEAD against the merge base of REV and HEAD
};
// port-check lint --staged | --changed-since REV [PATH...]: lint what a commit or branch changes, read
// from git blobs (hook.paths select the files; PATHs narrow them). Exit 2 on any tool error.
int runLintChanges(const CommonOptions& options, const GitChangeOptions& git, const std::vector<std::string>& paths,
                   const Io& io);

// Subcommands that exist in the interface but are not built yet: say so, exit 2.
// Options of port-check report.
struct ReportOptions {
  std::optional<std::string> html;       // --html FILE; default <cache-dir>/report/report.html
  std::optional<std::string> cache_dir;  // --cache-dir; else <workspace>/.port-check-cache
  std::vector<std::string> assume;       // --assume NAME=VALUE: a run-time value for the schedule's counts
};

// port-check report PATH...: the SRAM table (estimate, capacity, %; the compiler's actual figure when
// the compile cache holds a still valid compile of the same sources), the MEM and FUSE advice, and a
// self-contained HTML page with SRAM bars per kernel and the orchestration task graph.
int runReport(const CommonOptions& options, const ReportOptions& report, const std::vector<std::string>& paths,
              const Io& io);

int runNotBuilt(const std::string& command, const Io& io);

// Options of port-check doctor.
struct DoctorOptions {
  std::string level = "simulator";       // --level passes|kernels|simulator: the level asked for
  bool run = false;                      // --run: also the self-test on the simulator
  std::optional<std::string> cache_dir;  // --cache-dir; else <workspace>/.port-check-cache
  std::optional<int> timeout_seconds;    // --timeout: per self-test run (default 600)
  std::optional<int> probe_timeout_seconds;  // --probe-timeout: per probe process (default 30)
};

// port-check doctor [--level L] [--run]: for each level a user can reach (passes, kernels, simulator),
// what is there, what is missing and what fixes it; --run also runs small programs of each kernel kind
// on the simulator against their goldens (docs/doctor.md). Text or JSON; exit 0 when the asked level is
// reached (and, with --run, every self-test program passed), else 1.
int runDoctor(const CommonOptions& options, const DoctorOptions& doctor, const Io& io);

// Options of port-check setup.
struct SetupOptions {
  std::string venv;       // --venv DIR: the virtual environment to make or complete
  bool apt = false;       // --apt: also apt-get install the Debian packages (root only)
  bool dry_run = false;   // --dry-run: print the commands, run none
};

// port-check setup --venv DIR [--apt] [--dry-run]: installs what the package registries offer toward the
// toolchain into DIR (torch, cloudpickle, nanobind 2, scikit-build-core from PyPI; the MLIR 19 / clang 19
// Debian packages only as root with --apt) and prints the exact steps left for the user's own checkouts of
// pypto, simpler, pto-isa and ptoas (docs/doctor.md). Exit 0 when every command it ran succeeded, 1 when one
// failed, 2 for bad arguments.
int runSetup(const CommonOptions& options, const SetupOptions& setup, const Io& io);

struct McpOptions {
  std::vector<std::string> roots;  // --root DIR: folders tool calls may touch when the client gives no roots
  std::size_t max_message = 4u << 20;
};
// port-check mcp [--root DIR]...: the Model Context Protocol server on stdin / stdout (docs/mcp.md).
int runMcp(const CommonOptions& options, const McpOptions& mcp, std::istream& in, const Io& io);

// port-check tune PROJECT...: the configurations of each port's TUNABLES screened by the SRAM estimate
// (docs/tune.md): pruned over capacity; the best survivors compiled in copies of the port when the
// toolchain is found, ranked on the compiler's figures.
struct TuneOptions {
  bool compile = true;                   // --no-compile: the estimate's screening only
  std::size_t max_compiles = 16;         // --max-compiles: the best-ranked survivors compiled
  std::optional<int> timeout_seconds;    // --timeout: per compile
  std::optional<std::string> cache_dir;  // --cache-dir
  std::size_t run_best = 0;              // --run K: the golden on the simulator for the best K compiled
  std::size_t beam_width = 4;            // --beam: configurations kept per step of the beam search
  bool apply = false;                    // --apply: write the pick into the port (one ledger attempt)
  bool no_prune = false;                 // --no-prune: compile the pruned too (bench: what pruning saves)
  std::optional<std::string> html;       // --html FILE: the plot and the ranked table
  std::vector<std::string> assume;       // --assume NAME=VALUE: run-time values for the estimated time
  std::optional<std::string> only;       // --only NAME=V,...: this one configuration, compiled (and run) unscreened
  std::optional<std::string> ray;        // --ray ADDR|auto: the compiles and runs as Ray tasks (docs/scale-out.md)
  std::optional<std::string> ray_python; // --ray-python: the interpreter with ray (else PORTCHECK_RAY_PYTHON, ...)
};
int runTune(const CommonOptions& options, const TuneOptions& tune, const std::vector<std::string>& paths, const Io& io);

}  // namespace portcheck

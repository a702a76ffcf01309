#include "app/mutation_check.h"

#include <map>

#include "app/compile_stage_runner.h"
#include "app/run_stage_runner.h"
#include "golden/mutants.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

const GoldenRun* contractRunOf(const Report& report, const std::string& project, const std::string& platform) {
  for (const GoldenRun& g : report.golden)
    if (g.project == project && g.platform == platform) return &g;
  return nullptr;
}

}  // namespace

void mutationCheckInto(Report& report, const Session& session, const CommonOptions& options,
                       const CompileOptions& compile, const Targets& targets, const Io& io, std::size_t limit) {
  const std::string platform = std::string(toString(session.platform)) + "sim";
  const fs::path root = cacheRoot(session, options, compile.cache_dir) / "mutants";
  std::map<std::string, std::pair<const Project*, Mutant>> by_copy;  // mutant project name -> origin
  std::vector<std::string> copies;
  std::vector<std::string> nothing_to_mutate;  // ports whose kernels live elsewhere (pypto-lib blocks)
  std::size_t made = 0, unchecked = 0;
  for (const Project& p : targets.projects) {
    const GoldenRun* run = contractRunOf(report, p.name, platform);
    if (!run || run->status != "passed") {  // a contract that fails already needs no mutants to doubt it
      ++unchecked;
      continue;
    }
    std::vector<Mutant> mutants = pickMutants(portMutants(p.pypto_src), limit);
    if (mutants.empty()) nothing_to_mutate.push_back(p.name);
    for (std::size_t k = 0; k < mutants.size(); ++k) {
      const std::string name = p.name + ".mutant-" + std::to_string(k + 1);
      std::string error;
      if (!writeMutantProject(p.dir, mutants[k], root / name, error)) {
        report.append({makeDiagnostic("TOOL005", session.workspace.relative(p.dir), 0, 0,
                                      "the mutation check could not copy the port: " + error)});
        continue;
      }
      by_copy.emplace(name, std::make_pair(&p, mutants[k]));
      copies.push_back((root / name).string());
      ++made;
    }
  }
  std::string unmutated;
  for (const std::string& n : nothing_to_mutate) unmutated += (unmutated.empty() ? "" : ", ") + n;
  if (!unmutated.empty())
    unmutated = "; no line of pypto_src/ to mutate in " + unmutated + " (kernels imported from pypto-lib are not mutated)";
  if (copies.empty()) {
    report.run.stages.push_back({"mutants", StageState::Skipped,
                                 (unchecked ? "no port passed its contract on " + platform + ", so no mutant was run"
                                            : std::string("no mutant was made")) +
                                     unmutated});
    return;
  }

  Report scratch;  // the mutants' own findings are expected failures: only their verdicts matter
  CompileOptions quiet = compile;
  quiet.no_ledger = true;
  Targets mutant_targets = collectTargets(session.workspace, options.cwd, copies);
  runInto(scratch, session, options, quiet, mutant_targets, io, /*required=*/true);

  std::size_t survived = 0, killed = 0, stillborn = 0;
  for (const GoldenRun& g : scratch.golden) {
    auto it = by_copy.find(g.project);
    if (it == by_copy.end()) continue;
    const auto& [origin, mutant] = it->second;
    if (g.status == "passed") {
      ++survived;
      report.append({makeDiagnostic(
          "GOLD024", session.workspace.relative(origin->pypto_src / mutant.file), mutant.line, 0,
          "a mutant of " + origin->name + " passes its contract on " + platform + ": " + mutant.describe() +
              "; no case tells the port from it, so passing the contract does not show the port right")});
    } else if (g.status == "failed") {
      ++killed;
    } else {
      ++stillborn;  // did not compile or run: says nothing about the contract
    }
  }
  report.run.stages.push_back(
      {"mutants", StageState::Ran,
       std::to_string(made) + " mutant" + (made == 1 ? "" : "s") + " on " + platform + ": " +
           std::to_string(killed) + " failed the contract, " + std::to_string(survived) + " passed it (GOLD024), " +
           std::to_string(stillborn) + " did not run" + unmutated});
}

}  // namespace portcheck

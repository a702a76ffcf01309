#include "app/mutation_check.h"

#include <map>

#include "app/compile_stage_runner.h"
#include "app/run_stage_runner.h"
#include "golden/mutants.h"
#include "lint/proj/project_check.h"
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
  // A mutant's name (its project's, or its program file's stem) -> what it was made from: the port or block,
  // the folder its mutated file lies in, the mutant.
  struct Origin {
    std::string name;
    fs::path source_root;
    Mutant mutant;
  };
  std::map<std::string, Origin> by_copy;
  std::vector<std::string> copies;
  std::vector<std::string> nothing_to_mutate;  // ports whose kernels live elsewhere (pypto-lib blocks)
  std::vector<std::string> blocks_unmutated;   // blocks whose kernel has no line a mutation changes
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
      by_copy.emplace(name, Origin{p.name, p.pypto_src, mutants[k]});
      copies.push_back((root / name).string());
      ++made;
    }
  }
  // pypto-lib blocks (docs/contract.md §8): their kernel lives in the block file, mutated as a program file of
  // its own, named so its run is told from the block's.
  for (const fs::path& f : targets.files) {
    const std::string block = blockNameOf(session.workspace.relative(f));
    if (block.empty()) continue;
    const GoldenRun* run = contractRunOf(report, block, platform);
    if (!run || run->status != "passed") {
      if (run) ++unchecked;
      continue;
    }
    std::vector<Mutant> mutants = pickMutants(programFileMutants(f), limit);
    if (mutants.empty()) blocks_unmutated.push_back(block);
    for (std::size_t k = 0; k < mutants.size(); ++k) {
      const std::string name = block + "_mutant_" + std::to_string(k + 1);
      const fs::path dest = root / name / (name + ".py");
      std::string error;
      if (!writeMutantFile(f, mutants[k], dest, error)) {
        report.append({makeDiagnostic("TOOL005", session.workspace.relative(f), 0, 0,
                                      "the mutation check could not copy the block: " + error)});
        continue;
      }
      by_copy.emplace(name, Origin{block, f.parent_path(), mutants[k]});
      copies.push_back(dest.string());
      ++made;
    }
  }
  std::string unmutated;
  for (const std::string& n : nothing_to_mutate) unmutated += (unmutated.empty() ? "" : ", ") + n;
  if (!unmutated.empty())
    unmutated = "; no line of pypto_src/ to mutate in " + unmutated +
                " (kernels imported from pypto-lib are mutated when their block is verified)";
  std::string blocks;
  for (const std::string& n : blocks_unmutated) blocks += (blocks.empty() ? "" : ", ") + n;
  if (!blocks.empty()) unmutated += "; no line to mutate in the block " + blocks;
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
    const Origin& origin = it->second;
    const Mutant& mutant = origin.mutant;
    if (g.status == "passed") {
      ++survived;
      report.append({makeDiagnostic(
          "GOLD024", session.workspace.relative(origin.source_root / mutant.file), mutant.line, 0,
          "a mutant of " + origin.name + " passes its contract on " + platform + ": " + mutant.describe() +
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

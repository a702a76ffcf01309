#pragma once
// A porting task of the agent evals (docs/evals.md): evals/tasks/<name>/task.json and the folders it names.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace portcheck::evals {

struct EvalTask {
  std::string name;                      // the folder's name; the attempt's project is scored under it
  std::string kind;                      // elementwise-broadcast, row-reduction, attention-decode, ...
  std::string title;
  std::string entry;                     // the @pl.jit entry the reference golden calls
  std::filesystem::path dir;             // absolute
  std::filesystem::path prompt;          // task.md: what the agent is given with original/
  std::filesystem::path original;        // the PyTorch original (the agent's input)
  std::filesystem::path reference;       // golden.py with CONTRACT: the task's own, never the agent's
  std::filesystem::path naive;           // a pypto_src/ of the naive form (speed baseline)
  double min_speedup = 1.0;              // naive µs / attempt µs must exceed this
  // Run-time values the speed check's schedule assumes for both forms (`report --assume NAME=V`): a
  // length read from a tensor (`seq_lens`) set to a representative value the contract's cases cover.
  std::vector<std::pair<std::string, long long>> assume;
};

struct LoadedTask {
  std::optional<EvalTask> task;
  std::string error;                     // why not, one line
};

// Reads `dir`/task.json (schema port-check-eval-task/1) and checks that every folder and file it names exists.
LoadedTask loadEvalTask(const std::filesystem::path& dir);

// Every task folder under `root` (a folder holding task.json), sorted by name.
std::vector<std::filesystem::path> taskFolders(const std::filesystem::path& root);

}  // namespace portcheck::evals

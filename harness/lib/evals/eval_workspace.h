#pragma once
// The scratch workspace an attempt is scored in: the attempt's pypto_src/ with the task's reference golden
// in place of the agent's own, the task's original/, and the task's naive form beside it (docs/evals.md).
#include <filesystem>
#include <string>

#include "evals/eval_task.h"

namespace portcheck::evals {

struct ScratchWorkspace {
  std::filesystem::path root;  // empty when it could not be made
  std::string error;
};

// Makes `root` afresh: port-check.json, projects/<task>/ (the attempt), projects/<task>_naive/ (the naive
// form), and pypto-lib/ linked to `library` when that exists (the blocks ports import).
ScratchWorkspace makeScratchWorkspace(const EvalTask& task, const std::filesystem::path& attempt,
                                      const std::filesystem::path& root, const std::filesystem::path& library);

}  // namespace portcheck::evals

#pragma once
// SKILL020: a skill's behavioural evals, skills/<name>/evals/evals.json, in the format of Anthropic's
// skill-creator (skill_name; evals[] of id, prompt, expected_output, files, expectations) with port-check's
// machine-checkable `checks` (docs/evals.md "Skill evals").
#include <filesystem>
#include <string>
#include <vector>

namespace portcheck {

struct SkillEvalProblem {
  std::filesystem::path file;  // the evals.json (or the skill folder when it has none)
  int line = 0;
  std::string message;
  std::string hint;
};

struct SkillEvalCount {
  int evals = 0;                          // evals in the file (0 when missing or unreadable)
  std::vector<SkillEvalProblem> problems;
};

// Checks `skill_dir`/evals/evals.json against the skill's folder name and the rule catalogue.
SkillEvalCount checkSkillEvals(const std::filesystem::path& skill_dir);

}  // namespace portcheck

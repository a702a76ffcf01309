#include "skills/skill_evals.h"

#include <nlohmann/json.hpp>
#include <set>

#include "rules/catalogue.h"
#include "skills/skill_pack.h"

namespace portcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::set<std::string> kCheckKeys = {"files_written", "rules_absent", "rules_acted_on", "commands"};

// The line of the first occurrence of `needle` in `text` (1-based), 1 when absent.
int lineOfText(const std::string& text, const std::string& needle) {
  std::size_t at = text.find(needle);
  if (at == std::string::npos) return 1;
  int line = 1;
  for (std::size_t i = 0; i < at; ++i) line += text[i] == '\n';
  return line;
}

bool nonEmptyStrings(const json& v) {
  if (!v.is_array() || v.empty()) return false;
  for (const json& s : v)
    if (!s.is_string() || s.get<std::string>().empty()) return false;
  return true;
}

}  // namespace

SkillEvalCount checkSkillEvals(const fs::path& skill_dir) {
  SkillEvalCount out;
  const fs::path file = skill_dir / "evals" / "evals.json";
  const std::string skill = skill_dir.filename().string();
  auto problem = [&](int line, std::string message, std::string hint = {}) {
    out.problems.push_back({file, line, std::move(message), std::move(hint)});
  };
  std::optional<std::string> text = readWholeFile(file);
  if (!text) {
    out.problems.push_back({skill_dir, 0, "skill '" + skill + "' has no behavioural evals (evals/evals.json)",
                            "add evals/evals.json: prompts with checkable expectations (docs/evals.md \"Skill evals\")"});
    return out;
  }
  json j = json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    problem(1, "evals.json is not a JSON object");
    return out;
  }
  if (j.value("skill_name", "") != skill)
    problem(lineOfText(*text, "\"skill_name\""), "evals.json's skill_name must be the skill's name '" + skill + "'");
  if (!j.contains("evals") || !j["evals"].is_array() || j["evals"].empty()) {
    problem(lineOfText(*text, "\"evals\""), "evals.json has no evals (\"evals\": [ ... ] with at least one)");
    return out;
  }
  std::set<std::int64_t> ids;
  for (const json& e : j["evals"]) {
    const int line = e.is_object() && e.contains("id") ? lineOfText(*text, "\"id\": " + e["id"].dump()) : 1;
    if (!e.is_object() || !e.contains("id") || !e["id"].is_number_integer()) {
      problem(line, "an eval has no integer id");
      continue;
    }
    const std::string at = "eval " + e["id"].dump() + ": ";
    if (!ids.insert(e["id"].get<std::int64_t>()).second) problem(line, at + "the id is used twice");
    if (!e.contains("prompt") || !e["prompt"].is_string() || e["prompt"].get<std::string>().empty())
      problem(line, at + "no prompt");
    if (!nonEmptyStrings(e.value("expectations", json())))
      problem(line, at + "no expectations (a list of checkable statements)");
    for (const json& f : e.value("files", json::array()))
      if (!f.is_string() || !fs::exists(skill_dir / f.get<std::string>()))
        problem(line, at + "the file " + f.dump() + " does not exist in the skill");
    if (!e.contains("checks")) continue;
    if (!e["checks"].is_object()) {
      problem(line, at + "checks must be an object");
      continue;
    }
    for (const auto& [key, value] : e["checks"].items()) {
      if (!kCheckKeys.count(key)) {
        problem(line, at + "unknown check '" + key + "'",
                "files_written, rules_absent, rules_acted_on or commands");
        continue;
      }
      if (!nonEmptyStrings(value)) {
        problem(line, at + "check '" + key + "' must be a non-empty list of strings");
        continue;
      }
      if (key != "rules_absent" && key != "rules_acted_on") continue;
      for (const json& id : value)
        if (!Catalogue::builtin().find(id.get<std::string>()))
          problem(line, at + "check '" + key + "' names " + id.get<std::string>() + ", which is not a rule",
                  "`port-check rules` lists them");
    }
  }
  out.evals = static_cast<int>(ids.size());
  return out;
}

}  // namespace portcheck

#include "evals/eval_task.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

namespace portcheck::evals {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

LoadedTask taskError(const fs::path& dir, const std::string& why) {
  return LoadedTask{std::nullopt, dir.generic_string() + ": " + why};
}

}  // namespace

LoadedTask loadEvalTask(const fs::path& dir_in) {
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(fs::absolute(dir_in), ec);
  const fs::path file = dir / "task.json";
  if (!fs::is_regular_file(file, ec)) return taskError(dir_in, "not a task: no task.json (docs/evals.md)");
  std::ifstream in(file);
  json j = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return taskError(dir_in, "task.json is not a JSON object");
  if (j.value("schema", "") != "port-check-eval-task/1")
    return taskError(dir_in, "task.json: schema must be \"port-check-eval-task/1\"");
  EvalTask t;
  t.name = dir.filename().string();
  t.dir = dir;
  for (const char* key : {"kind", "title", "entry"})
    if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty())
      return taskError(dir_in, std::string("task.json: \"") + key + "\" must be a non-empty string");
  t.kind = j["kind"];
  t.title = j["title"];
  t.entry = j["entry"];
  t.prompt = dir / j.value("prompt", "task.md");
  t.original = dir / j.value("original", "original");
  t.reference = dir / j.value("reference", "reference/golden.py");
  t.naive = dir / j.value("naive", "naive/pypto_src");
  if (j.contains("min_speedup")) {
    if (!j["min_speedup"].is_number() || j["min_speedup"].get<double>() <= 0)
      return taskError(dir_in, "task.json: \"min_speedup\" must be a positive number");
    t.min_speedup = j["min_speedup"];
  }
  if (j.contains("assume")) {
    if (!j["assume"].is_object()) return taskError(dir_in, "task.json: \"assume\" must be an object of NAME: integer");
    for (const auto& [name, value] : j["assume"].items()) {
      if (name.empty() || !value.is_number_integer())
        return taskError(dir_in, "task.json: \"assume\": \"" + name + "\" must be an integer");
      t.assume.emplace_back(name, value.get<long long>());
    }
  }
  if (!fs::is_regular_file(t.prompt, ec)) return taskError(dir_in, "the prompt " + t.prompt.filename().string() + " is missing");
  if (!fs::is_directory(t.original, ec)) return taskError(dir_in, "the original/ folder is missing");
  if (!fs::is_regular_file(t.reference, ec)) return taskError(dir_in, "the reference golden is missing");
  if (!fs::is_regular_file(t.naive / "orchestration.py", ec))
    return taskError(dir_in, "the naive form has no orchestration.py");
  return LoadedTask{std::move(t), ""};
}

std::vector<fs::path> taskFolders(const fs::path& root) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(root, ec))
    if (e.is_directory(ec) && fs::is_regular_file(e.path() / "task.json", ec)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace portcheck::evals

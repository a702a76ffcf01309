#include "skills/skill_pack.h"

#include <git2.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/embedded_file.h"
#include "core/text.h"
#include "workspace/workspace.h"

namespace portcheck {

namespace fs = std::filesystem;

bool isSkillPackRoot(const fs::path& root) {
  std::error_code ec;
  return fs::is_directory(root / "skills", ec) && fs::is_regular_file(root / kPluginManifest, ec);
}

std::optional<std::string> readWholeFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return ss.str();
}

namespace {

// A skill's evals/ folder holds what an eval agent is scored on (docs/evals.md): it stays in the pack's
// repository and is never installed beside the skill an agent reads.
bool isSkillEvalsPath(std::string_view rel_to_skill) { return startsWith(rel_to_skill, "evals/"); }

}  // namespace

std::vector<PackFile> skillFilesFromDir(const fs::path& root) {
  std::vector<PackFile> out;
  std::error_code ec;
  fs::path skills = root / "skills";
  for (const fs::directory_entry& dir : fs::directory_iterator(skills, ec)) {
    std::string name = dir.path().filename().string();
    if (!dir.is_directory(ec) || name.empty() || name[0] == '.' || isSkippedDirectory(name)) continue;
    if (!fs::is_regular_file(dir.path() / "SKILL.md", ec)) continue;
    fs::recursive_directory_iterator it(dir.path(), ec), end;
    for (; it != end; it.increment(ec)) {
      std::string leaf = it->path().filename().string();
      if (it->is_directory(ec)) {
        if (leaf[0] == '.' || isSkippedDirectory(leaf) || (it.depth() == 0 && leaf == "evals"))
          it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(ec) || leaf[0] == '.') continue;
      auto bytes = readWholeFile(it->path());
      if (!bytes) continue;
      out.push_back({it->path().lexically_relative(root).generic_string(), std::move(*bytes)});
    }
  }
  std::sort(out.begin(), out.end(), [](const PackFile& a, const PackFile& b) { return a.path < b.path; });
  return out;
}

std::vector<PackFile> skillFilesEmbedded() {
  std::set<std::string> skills;  // folders that hold a SKILL.md
  for (std::size_t i = 0; i < kResourceFilesCount; ++i) {
    std::string_view p = kResourceFiles[i].path;
    if (startsWith(p, "skills/") && endsWith(p, "/SKILL.md") && std::count(p.begin(), p.end(), '/') == 2)
      skills.insert(std::string(p.substr(0, p.size() - std::string_view("SKILL.md").size())));
  }
  std::vector<PackFile> out;
  for (std::size_t i = 0; i < kResourceFilesCount; ++i) {
    std::string p = kResourceFiles[i].path;
    for (const std::string& s : skills)
      if (startsWith(p, s) && !isSkillEvalsPath(std::string_view(p).substr(s.size()))) {
        out.push_back({p, std::string(kResourceFiles[i].bytes())});
        break;
      }
  }
  std::sort(out.begin(), out.end(), [](const PackFile& a, const PackFile& b) { return a.path < b.path; });
  return out;
}

std::optional<std::string> embeddedPackFile(std::string_view path) {
  for (std::size_t i = 0; i < kResourceFilesCount; ++i)
    if (kResourceFiles[i].path == path) return std::string(kResourceFiles[i].bytes());
  return std::nullopt;
}

namespace {
std::string stringField(std::string_view json_text, const char* key) {
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains(key) || !j[key].is_string()) return {};
  return j[key].get<std::string>();
}
}  // namespace

std::string pluginVersion(std::string_view plugin_json) { return stringField(plugin_json, "version"); }
std::string pluginName(std::string_view plugin_json) { return stringField(plugin_json, "name"); }

std::string blobHash(std::string_view bytes) {
  static const int kInit = git_libgit2_init();  // once per process; libgit2 counts init calls
  (void)kInit;
  git_oid oid;
  if (git_odb_hash(&oid, bytes.data(), bytes.size(), GIT_OBJECT_BLOB) != 0) return {};
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &oid);
  return hex;
}

}  // namespace portcheck

#include "tune/apply_config.h"

#include <fstream>
#include <map>
#include <sstream>

#include "core/atomic_file.h"
#include "tune/config_tree.h"

namespace portcheck::tune {

bool applyConfig(const Project& project, const Config& config, std::vector<std::string>& changed, std::string& error) {
  std::map<std::string, bool> found;
  for (const auto& [name, value] : config) found[name] = false;
  std::vector<std::pair<std::filesystem::path, std::string>> writes;
  for (const std::filesystem::path& p : project.sources) {
    if (p.extension() != ".py") continue;
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string original = text.str();
    std::string next = original;
    for (const auto& [name, value] : config)
      if (std::optional<std::string> with = withConstant(next, name, value)) {
        next = std::move(*with);
        found[name] = true;
      }
    if (next != original) writes.push_back({p, std::move(next)});
  }
  for (const auto& [name, ok] : found)
    if (!ok) {
      error = "no file of " + project.name + "/pypto_src assigns " + name + " at module level";
      return false;
    }
  for (const auto& [path, text] : writes) {
    if (!writeFileAtomically(path, text, error)) return false;
    changed.push_back(path.string());
  }
  return true;
}

}  // namespace portcheck::tune

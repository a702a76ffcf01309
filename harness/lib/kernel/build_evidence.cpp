#include "kernel/build_evidence.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

namespace portcheck::kernel {

namespace fs = std::filesystem;

namespace {

std::string slurpBuildFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return "";
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string normalisedAbsolute(const fs::path& p) {
  std::error_code ec;
  return fs::absolute(p, ec).lexically_normal().generic_string();
}

// A command string split as a shell would for the plain cases compile_commands.json holds (quotes, no expansion).
std::vector<std::string> splitCommand(const std::string& command) {
  std::vector<std::string> out;
  std::string cur;
  bool any = false;
  char quote = 0;
  for (std::size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < command.size()) cur += command[++i];
      else cur += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      any = true;
    } else if (c == '\\' && i + 1 < command.size()) {
      cur += command[++i];
      any = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (any || !cur.empty()) out.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += c;
    }
  }
  if (any || !cur.empty()) out.push_back(cur);
  return out;
}

// The AUTO-mode flag among compiler arguments: -D__PTO_AUTO__[=...], -D __PTO_AUTO__, --cce-pto-auto-enable.
std::string autoFlagIn(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--cce-pto-auto-enable") return a;
    std::string def = a == "-D" && i + 1 < args.size() ? args[i + 1] : a.starts_with("-D") ? a.substr(2) : "";
    if (def == "__PTO_AUTO__" || def.starts_with("__PTO_AUTO__=")) return "-D" + def;
  }
  return "";
}

// CMake text with comments blanked (line numbers kept).
std::string withoutCMakeComments(const std::string& text) {
  std::string out = text;
  bool in_string = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '"' && (i == 0 || out[i - 1] != '\\')) in_string = !in_string;
    if (out[i] == '#' && !in_string)
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
  }
  return out;
}

bool containsWordText(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if ((at == 0 || !ident(text[at - 1])) && (at + word.size() >= text.size() || !ident(text[at + word.size()])))
      return true;
  }
  return false;
}

}  // namespace

BuildEvidence::BuildEvidence(fs::path workspace_root, std::vector<std::string> defines,
                             std::optional<fs::path> compile_commands)
    : root_(std::move(workspace_root)), defines_(std::move(defines)) {
  std::vector<fs::path> candidates;
  if (compile_commands) candidates.push_back(compile_commands->is_relative() ? root_ / *compile_commands : *compile_commands);
  else candidates = {root_ / "compile_commands.json", root_ / "build" / "compile_commands.json"};
  for (const fs::path& p : candidates) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) {
      if (compile_commands) problem_ = p.string() + " does not exist";
      continue;
    }
    nlohmann::json j = nlohmann::json::parse(slurpBuildFile(p), nullptr, false);
    if (!j.is_array()) {
      problem_ = p.string() + " is not a JSON compilation database (an array of entries)";
      continue;
    }
    std::string shown = p.lexically_relative(root_).generic_string();
    if (shown.empty() || shown.starts_with("..")) shown = p.filename().string();
    for (const auto& e : j) {
      if (!e.is_object() || !e.contains("file") || !e["file"].is_string()) continue;
      Entry entry;
      entry.directory = e.value("directory", std::string());
      entry.source = shown;
      if (e.contains("arguments") && e["arguments"].is_array()) {
        for (const auto& a : e["arguments"])
          if (a.is_string()) entry.args.push_back(a.get<std::string>());
      } else if (e.contains("command") && e["command"].is_string()) {
        entry.args = splitCommand(e["command"].get<std::string>());
      }
      fs::path file = e["file"].get<std::string>();
      if (file.is_relative()) file = fs::path(entry.directory) / file;
      entries_[normalisedAbsolute(file)] = std::move(entry);
    }
    break;
  }
}

const BuildEvidence::CMakeFile* BuildEvidence::cmakeIn(const fs::path& dir) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, fresh] = cmake_.try_emplace(dir.generic_string());
  if (!fresh) return it->second.get();
  std::error_code ec;
  fs::path file = dir / "CMakeLists.txt";
  if (!fs::is_regular_file(file, ec)) return nullptr;
  auto cm = std::make_unique<CMakeFile>();
  cm->text = withoutCMakeComments(slurpBuildFile(file));
  static const std::regex kCommand(R"(\b([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*)\))");
  for (auto m = std::sregex_iterator(cm->text.begin(), cm->text.end(), kCommand); m != std::sregex_iterator(); ++m) {
    std::string command = (*m)[1];
    std::string lower = command;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "if" || lower == "elseif" || lower == "message" || lower == "option") continue;
    std::string args = (*m)[2];
    bool defines = containsWordText(args, "__PTO_AUTO__") &&
                   (lower.find("definitions") != std::string::npos || lower.find("options") != std::string::npos ||
                    lower == "set" || lower == "list" || lower == "string");
    bool bisheng = args.find("--cce-pto-auto-enable") != std::string::npos;
    if (!defines && !bisheng) continue;
    Marker mk;
    mk.line = 1 + static_cast<int>(std::count(cm->text.begin(), cm->text.begin() + m->position(0), '\n'));
    mk.text = bisheng ? command + "(... --cce-pto-auto-enable ...)" : command + "(... __PTO_AUTO__ ...)";
    if (lower.starts_with("target_")) {
      std::istringstream words(args);
      words >> mk.target;
    }
    cm->markers.push_back(std::move(mk));
  }
  it->second = std::move(cm);
  return it->second.get();
}

std::optional<BuildMode> BuildEvidence::modeOf(const std::string& rel_path) const {
  for (const std::string& d : defines_)
    if (d == "__PTO_AUTO__" || d.starts_with("__PTO_AUTO__="))
      return BuildMode{true, "port-check was given -D " + d, "", 0};
  const fs::path abs = root_ / rel_path;
  if (auto it = entries_.find(normalisedAbsolute(abs)); it != entries_.end()) {
    std::string flag = autoFlagIn(it->second.args);
    if (!flag.empty()) return BuildMode{true, it->second.source + ": its entry for the file passes " + flag, it->second.source, 0};
  }
  const std::string name = fs::path(rel_path).filename().string();
  std::error_code ec;
  const fs::path root = fs::absolute(root_, ec).lexically_normal();
  for (fs::path dir = fs::absolute(abs, ec).lexically_normal().parent_path();; dir = dir.parent_path()) {
    if (const CMakeFile* cm = cmakeIn(dir)) {
      for (const Marker& mk : cm->markers) {
        if (!mk.target.empty()) {
          // A target's definitions: only when the target's source list names the file, or lists no .cpp here.
          static const std::regex kTargetSources(R"(\b([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([^()\s]+)([^()]*)\))");
          bool listed = false, names_file = false;
          for (auto m = std::sregex_iterator(cm->text.begin(), cm->text.end(), kTargetSources); m != std::sregex_iterator(); ++m) {
            std::string cmd = (*m)[1];
            if ((*m)[2] != mk.target || cmd.starts_with("target_")) continue;
            std::string rest = (*m)[3];
            if (rest.find(".cpp") != std::string::npos || rest.find(".cc") != std::string::npos) listed = true;
            if (containsWordText(rest, fs::path(name).stem().string()) && rest.find(name) != std::string::npos) names_file = true;
          }
          if (listed && !names_file) continue;
        }
        std::string shown = (dir / "CMakeLists.txt").lexically_relative(root).generic_string();
        return BuildMode{true, shown + ":" + std::to_string(mk.line) + ": " + mk.text, shown, mk.line};
      }
    }
    if (dir == root || !dir.has_parent_path() || dir.parent_path() == dir ||
        dir.generic_string().size() <= root.generic_string().size())
      break;
  }
  return std::nullopt;
}

std::vector<std::string> BuildEvidence::includeDirsOf(const std::string& rel_path) const {
  std::vector<std::string> out;
  auto it = entries_.find(normalisedAbsolute(root_ / rel_path));
  if (it == entries_.end()) return out;
  const std::vector<std::string>& a = it->second.args;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::string dir;
    if ((a[i] == "-I" || a[i] == "-isystem") && i + 1 < a.size()) dir = a[++i];
    else if (a[i].starts_with("-I")) dir = a[i].substr(2);
    else if (a[i].starts_with("-isystem") && a[i].size() > 8) dir = a[i].substr(8);
    if (dir.empty()) continue;
    fs::path p = dir;
    if (p.is_relative()) p = fs::path(it->second.directory) / p;
    out.push_back(p.lexically_normal().string());
  }
  return out;
}

std::string BuildEvidence::fingerprint(const std::string& rel_path) const {
  std::optional<BuildMode> m = modeOf(rel_path);
  std::string s = m ? m->evidence : "";
  for (const std::string& d : includeDirsOf(rel_path)) s += "\n-I" + d;
  return s;
}

}  // namespace portcheck::kernel

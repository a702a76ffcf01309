#include "golden/run_text.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "core/text.h"

namespace portcheck {

namespace fs = std::filesystem;

std::string outputSubject(const RunRecord& run, const GoldenOutput& output) {
  std::string s = "output '" + output.name + "' of " + run.project;
  if (!output.case_id.empty()) s += " in case " + output.case_id;
  return s;
}

std::string joinCases(const std::vector<std::string>& cases) {
  if (cases.empty()) return "the contract's runs";
  std::string s = cases.size() == 1 ? "case " : "cases ";
  for (std::size_t i = 0; i < cases.size(); ++i)
    s += (i == 0 ? "" : i + 1 == cases.size() ? " and " : ", ") + cases[i];
  return s;
}

std::string formatNumber(std::optional<double> v) {
  if (!v) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", *v);
  return buf;
}

std::string formatIndex(const std::vector<std::int64_t>& index) {
  std::string s = "[";
  for (std::size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::to_string(index[i]);
  return s + "]";
}

std::string formatShare(double share) {
  if (share > 0 && share < 0.0005) return "<0.1%";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", share * 100.0);
  return buf;
}

std::string mapRunPaths(const RunRecord& run, std::string text) {
  auto map = run.path_map;
  std::sort(map.begin(), map.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [from, to] : map) {
    if (from.empty()) continue;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  }
  return text;
}

std::string runLogTail(const RunRecord& run, std::size_t n) {
  std::string clean;
  for (char c : sanitizeUtf8(run.log)) {
    unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) continue;
    clean += c;
  }
  std::vector<std::string> lines;
  std::istringstream in(clean);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
  std::size_t from = lines.size() > n ? lines.size() - n : 0;
  std::string out;
  for (std::size_t i = from; i < lines.size(); ++i) out += (out.empty() ? "" : "\n") + lines[i];
  return mapRunPaths(run, out);
}

std::string exceptionText(const RunRecord& run, bool first_line) {
  const RunResult& r = run.result;
  std::string message = r.exception_message;
  if (first_line) {
    auto nl = message.find('\n');
    if (nl != std::string::npos) message = message.substr(0, nl);
  }
  std::string out = r.exception_type.empty() || r.exception_type == "port-check.RunContractError" ||
                            r.exception_type == "port-check.AdapterError"
                        ? message
                        : r.exception_type + (message.empty() ? "" : ": " + message);
  return mapRunPaths(run, out);
}

std::string compilerErrorClause(std::string_view message) {
  std::string flat;
  for (char ch : message) {
    if (ch == '\n' || ch == '|' || ch == '\t' || ch == '\r') ch = ' ';
    if (ch == ' ' && (flat.empty() || flat.back() == ' ')) continue;
    flat += ch;
  }
  std::size_t error = flat.find("error:");
  if (error == std::string::npos) return {};
  std::size_t end = flat.find(" ---", error);  // the table's next rule
  std::size_t length = std::min<std::size_t>(end == std::string::npos ? flat.size() : end, error + 240) - error;
  while (length > 0 && flat[error + length - 1] == ' ') --length;
  return flat.substr(error, length);
}

std::string workspaceRelative(const RunRecord& run, const std::string& absolute) {
  std::string mapped = mapRunPaths(run, absolute);
  return mapped == absolute ? std::string() : mapped;  // outside the port: no location
}

std::pair<std::string, int> outputLocation(const RunRecord& run, const std::string& name) {
  const RunResult& r = run.result;
  if (!r.entry_file.empty()) {
    std::string file = workspaceRelative(run, r.entry_file);
    if (!file.empty()) {
      auto it = r.output_lines.find(name);
      return {file, it != r.output_lines.end() ? it->second : r.entry_line};
    }
  }
  return {run.display_file, 0};
}

std::pair<std::string, int> tracebackLocation(const RunRecord& run) {
  std::pair<std::string, int> found{run.display_file, 0};
  std::string root = run.source_root.string();
  if (!root.empty() && root.back() != '/') root += '/';
  std::istringstream in(run.result.traceback);
  for (std::string line; std::getline(in, line);) {
    auto f = line.find("File \"");
    if (f == std::string::npos) continue;
    auto q = line.find('"', f + 6);
    auto l = q == std::string::npos ? q : line.find(", line ", q);
    if (l == std::string::npos) continue;
    std::string path = line.substr(f + 6, q - f - 6);
    int number = std::atoi(line.c_str() + l + 7);
    if (!root.empty() && path.rfind(root, 0) == 0 && number > 0) {
      std::string file = workspaceRelative(run, path);
      if (!file.empty()) found = {file, number};
    }
  }
  return found;
}

std::string runFailureText(const RunRecord& run) {
  return run.result.exception_type + ": " + run.result.exception_message;
}

bool containsAnyOf(std::string_view text, std::initializer_list<std::string_view> needles) {
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  std::string hay = lower(text);
  for (std::string_view n : needles)
    if (hay.find(lower(n)) != std::string::npos) return true;
  return false;
}

std::string firstCompilerError(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto at = line.find(": error: ");
    if (at == std::string::npos) at = line.find(": fatal error: ");
    if (at != std::string::npos && at > 0) return line;
  }
  return {};
}

}  // namespace portcheck

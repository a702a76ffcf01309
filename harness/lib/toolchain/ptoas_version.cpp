#include "toolchain/ptoas_version.h"

#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>

#include "core/text.h"
#include "process/subprocess.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

std::string versionsEnvText(const fs::path& pypto_root) {
  std::ifstream in(pypto_root / "toolchain" / "versions.env", std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string ptoasVersion(std::string_view output) {
  static const std::regex version(R"(\bv?(\d+\.\d+(?:\.\d+)?)\b)");
  std::string text(output);
  std::smatch m;
  return std::regex_search(text, m, version) ? m[1].str() : std::string();
}

std::string pinnedPtoasVersion(const fs::path& pypto_root) {
  std::string text = versionsEnvText(pypto_root);
  for (std::string_view line : splitLines(text)) {
    line = trim(line);
    if (startsWith(line, "PTOAS_VERSION=")) return std::string(trim(line.substr(14)));
  }
  return {};
}

bool ptoasVersionsDiffer(std::string_view installed, std::string_view pinned) {
  auto bare = [](std::string_view v) { return !v.empty() && v[0] == 'v' ? v.substr(1) : v; };
  return !installed.empty() && !pinned.empty() && bare(installed) != bare(pinned);
}

std::string installedPtoasVersion(const Toolchain& toolchain, const std::map<std::string, std::string>& env) {
  if (toolchain.ptoas.empty()) return {};
  static std::mutex lock;
  static std::map<std::string, std::string> asked;
  std::lock_guard<std::mutex> hold(lock);
  auto [it, fresh] = asked.emplace(toolchain.ptoas.string(), std::string());
  if (fresh) {
    ProcessSpec spec;
    spec.argv = {toolchain.ptoas.string(), "--version"};
    spec.env = env;
    spec.timeout = std::chrono::seconds(30);
    ProcessResult r = runProcess(spec);
    if (r.started && !r.timed_out && r.signal == 0 && r.exit_code == 0) it->second = ptoasVersion(r.output);
  }
  return it->second;
}

std::string ptoasMismatchNote(std::string_view installed, std::string_view pinned) {
  if (!ptoasVersionsDiffer(installed, pinned)) return {};
  return "this ptoas is " + std::string(installed) + "; PyPTO pins " + std::string(pinned) +
         " (toolchain/versions.env): ops newer than this ptoas are rejected like this, whatever the port "
         "does. `port-check doctor --run` shows which kinds of kernel it handles; try the port with ptoas " +
         std::string(pinned) + " before changing it";
}

}  // namespace portcheck

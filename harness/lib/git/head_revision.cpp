#include "git/head_revision.h"

#include <fstream>
#include <sstream>

namespace portcheck {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> firstLine(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

bool isObjectId(const std::string& s) {
  if (s.size() != 40) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// `.git` as a folder, or the folder a `.git` file names with "gitdir: ..." (submodules).
std::optional<fs::path> gitDir(const fs::path& repo_dir) {
  std::error_code ec;
  fs::path dot = repo_dir / ".git";
  if (fs::is_directory(dot, ec)) return dot;
  if (!fs::is_regular_file(dot, ec)) return std::nullopt;
  std::optional<std::string> line = firstLine(dot);
  if (!line || line->rfind("gitdir: ", 0) != 0) return std::nullopt;
  fs::path target = line->substr(8);
  return target.is_absolute() ? target : repo_dir / target;
}

std::optional<std::string> packedRef(const fs::path& git_dir, const std::string& ref) {
  std::ifstream in(git_dir / "packed-refs");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == '^') continue;
    if (line.size() > 41 && line.compare(41, std::string::npos, ref) == 0 && isObjectId(line.substr(0, 40)))
      return line.substr(0, 40);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> readHeadFromGitFiles(const fs::path& repo_dir) {
  std::optional<fs::path> git_dir = gitDir(repo_dir);
  if (!git_dir) return std::nullopt;
  std::error_code ec;
  if (fs::exists(*git_dir / "commondir", ec)) return std::nullopt;  // a linked worktree: libgit2 knows
  std::optional<std::string> head = firstLine(*git_dir / "HEAD");
  if (!head) return std::nullopt;
  if (isObjectId(*head)) return head;  // detached
  if (head->rfind("ref: refs/", 0) != 0) return std::nullopt;
  std::string ref = head->substr(5);
  if (ref.find("..") != std::string::npos) return std::nullopt;
  if (std::optional<std::string> loose = firstLine(*git_dir / ref); loose && isObjectId(*loose)) return loose;
  if (fs::exists(*git_dir / ref, ec)) return std::nullopt;  // a loose ref we cannot read plainly
  return packedRef(*git_dir, ref);
}

}  // namespace portcheck

#include "golden/mutants.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <utility>

#include "workspace/workspace.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

// Operation swaps that keep the call well-formed (same arity and operand kinds) and change its value.
constexpr std::pair<const char*, const char*> kSwaps[] = {
    {"pl.add(", "pl.sub("},           {"pl.sub(", "pl.add("},         {"pl.mul(", "pl.add("},
    {"pl.maximum(", "pl.minimum("},   {"pl.row_max(", "pl.row_min("}, {"pl.row_sum(", "pl.row_max("},
    {"pl.exp(", "pl.neg("},
};

std::string trimmed(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// Parentheses balance on the line, so rewriting it alone keeps the file parseable.
bool balanced(const std::string& s) {
  int depth = 0;
  for (char c : s) {
    depth += c == '(' || c == '[';
    depth -= c == ')' || c == ']';
    if (depth < 0) return false;
  }
  return depth == 0;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string joined(const std::vector<std::string>& ls) {
  std::string out;
  for (const std::string& l : ls) out += l + "\n";
  return out;
}

void mutateFile(const std::string& rel, const std::string& text, std::vector<Mutant>& out) {
  std::vector<std::string> ls = lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::string& l = ls[i];
    const std::string t = trimmed(l);
    if (t.empty() || t[0] == '#' || !balanced(l)) continue;
    const std::string indent = l.substr(0, l.find_first_not_of(" \t"));
    auto add = [&](const std::string& kind, const std::string& mutated) {
      std::vector<std::string> copy = ls;
      copy[i] = mutated;
      out.push_back({rel, static_cast<int>(i + 1), kind, t, trimmed(mutated), joined(copy)});
    };
    // A store as a statement is dropped; `x = pl.store(tile, offsets, target)` binds x to the target
    // unwritten, so later uses of x still name a tensor.
    if (t.rfind("pl.store(", 0) == 0 && t.back() == ')') add("drop-store", indent + "pass");
    if (std::size_t eq = t.find("= pl.store("); eq != std::string::npos && t.back() == ')') {
      std::string args = t.substr(eq + 11, t.size() - eq - 12);
      std::size_t comma = args.rfind(',');
      std::string target = comma == std::string::npos ? std::string() : trimmed(args.substr(comma + 1));
      if (!target.empty() && target.find_first_of("()[]=") == std::string::npos)
        add("drop-store", indent + trimmed(t.substr(0, eq)) + " = " + target);
    }
    for (const auto& [from, to] : kSwaps) {
      std::size_t at = l.find(from);
      if (at == std::string::npos) continue;
      std::string mutated = l;
      mutated.replace(at, std::char_traits<char>::length(from), to);
      add("swap-op", mutated);
      break;  // one mutant per line
    }
  }
}

}  // namespace

std::string Mutant::describe() const {
  return file + ":" + std::to_string(line) + " " + kind + ": `" + before + "` -> `" + after + "`";
}

std::vector<Mutant> portMutants(const fs::path& pypto_src) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(pypto_src, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory() && isSkippedDirectory(it->path().filename().string())) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".py" && it->path().filename() != "golden.py")
      files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Mutant> out;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    mutateFile(fs::relative(f, pypto_src).generic_string(), ss.str(), out);
  }
  return out;
}

std::vector<Mutant> programFileMutants(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  std::vector<Mutant> out;
  mutateFile(file.filename().generic_string(), ss.str(), out);
  return out;
}

std::vector<Mutant> pickMutants(const std::vector<Mutant>& all, std::size_t limit) {
  if (all.size() <= limit) return all;
  std::vector<Mutant> out;
  if (limit == 0) return out;
  if (limit == 1) return {all.front()};
  for (std::size_t k = 0; k < limit; ++k) out.push_back(all[k * (all.size() - 1) / (limit - 1)]);
  return out;
}

bool writeMutantProject(const fs::path& project_dir, const Mutant& mutant, const fs::path& dest,
                        std::string& error) {
  std::error_code ec;
  fs::remove_all(dest, ec);
  fs::create_directories(dest, ec);
  for (auto it = fs::directory_iterator(project_dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name == ".port-check" || isSkippedDirectory(name)) continue;  // not the ledger, not caches
    fs::copy(it->path(), dest / name, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    if (ec) break;
  }
  if (ec) {
    error = "cannot copy " + project_dir.string() + " to " + dest.string() + ": " + ec.message();
    return false;
  }
  std::ofstream out(dest / "pypto_src" / mutant.file, std::ios::binary | std::ios::trunc);
  out << mutant.text;
  if (!out) {
    error = "cannot write " + (dest / "pypto_src" / mutant.file).string();
    return false;
  }
  return true;
}

bool writeMutantFile(const fs::path& file, const Mutant& mutant, const fs::path& dest, std::string& error) {
  std::error_code ec;
  fs::remove_all(dest.parent_path(), ec);
  fs::create_directories(dest.parent_path(), ec);
  for (auto it = fs::directory_iterator(file.parent_path(), ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() == ".py") continue;
    fs::copy_file(it->path(), dest.parent_path() / it->path().filename(), fs::copy_options::overwrite_existing, ec);
    if (ec) break;
  }
  if (ec) {
    error = "cannot copy the files beside " + file.string() + ": " + ec.message();
    return false;
  }
  std::ofstream out(dest, std::ios::binary | std::ios::trunc);
  out << mutant.text;
  if (!out) {
    error = "cannot write " + dest.string();
    return false;
  }
  return true;
}

}  // namespace portcheck

#include "clangcheck/environment_faults.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_set>

#include "core/text.h"
#include "rules/catalogue.h"

namespace portcheck::clangcheck {

namespace fs = std::filesystem;

namespace {

std::string slurpEnvFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdentChar(char c) { return isIdentStart(c) || (c >= '0' && c <= '9'); }

bool isSourceLike(const fs::path& p) {
  std::string e = p.extension().string();
  return e == ".h" || e == ".hpp" || e == ".hh" || e == ".hxx" || e == ".inc" || e == ".cpp" || e == ".cc" ||
         e == ".cxx" || e == ".tpp" || e.empty();
}

// Every regular file under `dir` (sorted, so lookups are deterministic), skipping hidden folders.
std::vector<fs::path> filesUnder(const fs::path& dir, std::size_t cap) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end && out.size() < cap; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (name.starts_with(".") || name == "node_modules" || name == "build") it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Does `text` call `word` (the word, then optional blanks, then '(')?
bool callsWord(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    if (at > 0 && isIdentChar(text[at - 1])) continue;
    std::size_t after = at + word.size();
    if (after < text.size() && isIdentChar(text[after])) continue;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
    if (after < text.size() && text[after] == '(') return true;
  }
  return false;
}

}  // namespace

HeaderTrees::HeaderTrees(fs::path used, std::optional<fs::path> pinned, fs::path workspace)
    : used_(std::move(used)), pinned_(std::move(pinned)), workspace_(std::move(workspace)) {
  std::error_code ec;
  if (pinned_ && fs::equivalent(*pinned_, used_, ec)) pinned_.reset();
}

std::string HeaderTrees::commitOf(const fs::path& root) {
  fs::path git = root / ".git";
  std::error_code ec;
  if (fs::is_regular_file(git, ec)) {  // a worktree: "gitdir: DIR"
    std::string t = std::string(trim(slurpEnvFile(git)));
    if (!t.starts_with("gitdir: ")) return "";
    git = fs::path(t.substr(8));
    if (git.is_relative()) git = root / git;
  }
  std::string head = std::string(trim(slurpEnvFile(git / "HEAD")));
  if (head.starts_with("ref: ")) head = std::string(trim(slurpEnvFile(git / head.substr(5))));
  if (head.size() < 8 || !std::all_of(head.begin(), head.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
    return "";
  return head.substr(0, 8);
}

bool HeaderTrees::inIncludes(const fs::path& root, const std::string& word) {
  std::shared_ptr<const std::vector<std::string>> words;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = words_.find(root.string());
    if (it != words_.end()) words = it->second;
  }
  if (!words) {
    std::unordered_set<std::string> set;
    for (const fs::path& f : filesUnder(root / "include", 20000)) {
      if (!isSourceLike(f)) continue;
      std::string text = slurpEnvFile(f);
      for (std::size_t i = 0; i < text.size();) {
        if (!isIdentStart(text[i])) {
          ++i;
          continue;
        }
        std::size_t j = i;
        while (j < text.size() && isIdentChar(text[j])) ++j;
        set.emplace(text, i, j - i);
        i = j;
      }
    }
    auto sorted = std::make_shared<std::vector<std::string>>(set.begin(), set.end());
    std::sort(sorted->begin(), sorted->end());
    std::lock_guard<std::mutex> lock(mutex_);
    words = words_.emplace(root.string(), std::move(sorted)).first->second;
  }
  return std::binary_search(words->begin(), words->end(), word);
}

std::string HeaderTrees::callerOutsideIncludes(const fs::path& root, const std::string& word) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = callers_.find({root.string(), word});
    if (it != callers_.end()) return it->second;
  }
  std::string found;
  for (const char* part : {"kernels", "tests", "demos"}) {
    for (const fs::path& f : filesUnder(root / part, 50000)) {
      if (!isSourceLike(f) || f.extension().empty()) continue;
      if (callsWord(slurpEnvFile(f), word)) {
        found = f.lexically_relative(root).generic_string();
        break;
      }
    }
    if (!found.empty()) break;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  callers_[{root.string(), word}] = found;
  return found;
}

std::vector<std::string> HeaderTrees::workspaceFilesNamed(const std::string& header) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!workspace_files_) {
    workspace_files_.emplace();
    for (const fs::path& f : filesUnder(workspace_, 200000)) workspace_files_->push_back(f.lexically_relative(workspace_).generic_string());
  }
  std::vector<std::string> out;
  for (const std::string& f : *workspace_files_)
    if (f == header || (f.size() > header.size() && f.ends_with(header) && f[f.size() - header.size() - 1] == '/'))
      out.push_back(f);
  return out;
}

namespace {

struct Cause {
  std::string key;  // one finding per key and run
  int line = 0, column = 0;
  std::string message, hint;
  std::vector<DiagnosticNote> notes;
};

std::string lineText(const std::string& text, int line) {
  int at = 1;
  std::size_t start = 0;
  while (at < line && start != std::string::npos) {
    start = text.find('\n', start);
    if (start != std::string::npos) ++start;
    ++at;
  }
  if (start == std::string::npos || start >= text.size()) return "";
  return text.substr(start, text.find('\n', start) - start);
}

std::string pinLabel(const fs::path& root, const std::string& origin) {
  std::string commit = HeaderTrees::commitOf(root);
  return origin + (commit.empty() ? "" : ", " + commit);
}

}  // namespace

std::vector<Diagnostic> classifyClangRun(const std::vector<ClangMessage>& messages, const ClangRun& run,
                                         HeaderTrees& trees) {
  const PathMapping& paths = run.paths;
  auto inHeaders = [&](const std::string& f) { return !paths.headers_root.empty() && f.starts_with(paths.headers_root + "/"); };
  auto inCpuHeaders = [&](const std::string& f) {
    return inHeaders(f) && (f.find("/include/pto/cpu/") != std::string::npos || f.ends_with("/cpu_stub.hpp"));
  };
  auto inWorkspace = [&](const std::string& f) {
    return f == paths.kernel_as_printed ||
           (!paths.workspace_root.empty() && f.starts_with(paths.workspace_root + "/") && !inHeaders(f));
  };
  const std::string used_label = "<pto-isa> = " + trees.used().string();
  static const std::regex kNotFound(R"(^'(.+)' file not found$)");
  static const std::regex kUndeclared(
      R"(^(?:use of undeclared identifier|unknown type name|no template named|use of undeclared identifier) '([A-Za-z_]\w*)'.*$|^no member named '([A-Za-z_]\w*)' in namespace 'pto'.*$)");
  static const std::regex kClash(R"(^(?:redefinition of|conflicting types for|functions that differ only in their return type).*)");

  std::vector<Cause> causes;
  int errors = 0;
  auto add = [&](Cause c) {
    for (const Cause& o : causes)
      if (o.key == c.key) return;
    causes.push_back(std::move(c));
  };
  for (const ClangMessage& m : messages) {
    if (m.severity == "warning") continue;
    ++errors;
    // Where the message lands in the kernel: its own line, a note's, else the #include that pulled it in.
    int line = 0, column = 0;
    bool kernel_in_chain = false;
    if (m.file == paths.kernel_as_printed) line = m.line, column = m.column, kernel_in_chain = true;
    for (const ClangMessage& n : m.notes)
      if (n.file == paths.kernel_as_printed) {
        if (!kernel_in_chain) line = n.line, column = n.column;
        kernel_in_chain = true;
      }
    for (const auto& [file, at] : m.included_from)
      if (line == 0 && file == paths.kernel_as_printed) line = at, column = 1;
    const std::string where = displayClangPath(m.file, paths) + ":" + std::to_string(m.line);
    std::smatch sm;
    if (std::regex_match(m.text, sm, kNotFound)) {
      const std::string header = sm[1];
      std::vector<std::string> own = trees.workspaceFilesNamed(header);
      std::error_code ec;
      if (!own.empty()) {
        std::string list;
        for (std::size_t i = 0; i < own.size() && i < 3; ++i) list += (i ? ", " : "") + own[i];
        if (own.size() > 3) list += " and " + std::to_string(own.size() - 3) + " more";
        add({"header:" + header, line, column,
             "kernel not checked: '" + header + "' (included at " + where +
                 ") is not on the compile check's include path; the workspace has it at " + list +
                 ", a folder the kernel's build adds as an include directory",
             "give the compile check the build's include directories (--compile-commands build/compile_commands.json), "
             "or include the header by its path relative to the including file",
             {}});
      } else if (trees.pinned() && fs::exists(*trees.pinned() / "include" / header, ec) &&
                 !fs::exists(trees.used() / "include" / header, ec)) {
        add({"pin", line, column,
             "kernel not checked: '" + header + "' (included at " + where +
                 ") is in the PTO-ISA headers of the runtime's pin (" + pinLabel(*trees.pinned(), "pypto runtime") +
                 ") but not in the headers on the include path (" + pinLabel(trees.used(), used_label) +
                 "): the include path holds another pin of PTO-ISA",
             "point --pto-isa (or PTO_ISA_ROOT) at the runtime's copy, " + trees.pinned()->string() +
                 ", or check out the pinned commit",
             {}});
      } else {
        add({"header:" + header, line, column,
             "kernel not checked: '" + header + "' (included at " + where +
                 ") is in neither the workspace nor the PTO-ISA headers (" + used_label +
                 "): a header of the CANN SDK, the host runtime or the system, which the CPU-simulator compile "
                 "check does not have",
             "keep host and SDK code out of the kernel file or guard it with #ifndef __CPU_SIM; where the SDK is "
             "installed, the build's compile_commands.json gives the check its include directory "
             "(--compile-commands FILE)",
             {}});
      }
      continue;
    }
    if (inWorkspace(m.file) && std::regex_match(m.text, sm, kUndeclared)) {
      const std::string word = sm[1].matched ? sm[1].str() : sm[2].str();
      if (trees.pinned() && trees.inIncludes(*trees.pinned(), word) && !trees.inIncludes(trees.used(), word)) {
        add({"pin", line, column,
             "kernel not checked: '" + word + "' (" + where + ") is defined by the PTO-ISA headers of the runtime's pin (" +
                 pinLabel(*trees.pinned(), "pypto runtime") + ") but not by the headers on the include path (" +
                 pinLabel(trees.used(), used_label) + "): the include path holds another pin of PTO-ISA",
             "point --pto-isa (or PTO_ISA_ROOT) at the runtime's copy, " + trees.pinned()->string() +
                 ", or check out the pinned commit",
             {}});
        continue;
      }
      if (!trees.inIncludes(trees.used(), word)) {
        // PTO-ISA's own NPU sources, of the used checkout or else of the runtime's pin (a checkout may hold
        // only include/).
        std::string caller = trees.callerOutsideIncludes(trees.used(), word);
        if (caller.empty() && trees.pinned() && !trees.inIncludes(*trees.pinned(), word))
          caller = trees.callerOutsideIncludes(*trees.pinned(), word);
        if (!caller.empty()) {
          add({"builtin:" + word, line, column,
               "kernel not checked: '" + word + "' (" + where +
                   ") is declared by none of the PTO-ISA headers, yet PTO-ISA's own NPU sources call it (" +
                   caller + "): a built-in of the NPU compiler or the CANN SDK that the CPU simulator lacks",
               "guard the NPU-only call with #ifndef __CPU_SIM (the NPU build keeps it)", {}});
          continue;
        }
      }
    }
    if (m.file == paths.kernel_as_printed && lineText(run.kernel_text, m.line).find("<<<") != std::string::npos) {
      add({"cce-launch", m.line, m.column,
           "kernel not checked: line " + std::to_string(m.line) +
               " launches a kernel with the CCE syntax `<<<...>>>`, which only the NPU compiler (bisheng -xcce) parses",
           "keep the host launch in a host file, or guard it with #ifndef __CPU_SIM", {}});
      continue;
    }
    if (inWorkspace(m.file) && std::regex_match(m.text, kClash)) {
      const ClangMessage* stub = nullptr;
      for (const ClangMessage& n : m.notes)
        if (inCpuHeaders(n.file)) stub = &n;
      if (stub) {
        add({"clash:" + m.text, line, column,
             "kernel not checked: " + where + ": " + m.text + ", which the CPU simulator's own headers also define (" +
                 displayClangPath(stub->file, paths) + ":" + std::to_string(stub->line) +
                 "); the NPU build does not include them",
             "guard the definition with #ifndef __CPU_SIM, or name it differently",
             {{displayClangPath(stub->file, paths), stub->line, stub->column, stub->text}}});
        continue;
      }
    }
    bool workspace_in_chain = kernel_in_chain;
    for (const ClangMessage& n : m.notes) workspace_in_chain |= inWorkspace(n.file);
    if (inHeaders(m.file) && !workspace_in_chain) {
      add({"headers", line, column,
           "kernel not checked: the PTO-ISA headers (" + used_label +
               ") do not compile for the CPU simulator as this kernel includes them; first error " + where + ": " +
               m.text,
           "the NPU compiler may accept the kernel: include <pto/pto-inst.hpp> before any other pto/ header (it "
           "defines the CCE keywords on the CPU), and check that the headers are the runtime's pin",
           {}});
      continue;
    }
  }
  std::vector<ClangMessage> kept;
  for (const ClangMessage& m : messages)
    if (causes.empty() || m.severity == "warning") kept.push_back(m);
  std::vector<Diagnostic> out = toDiagnostics(kept, paths);
  for (std::size_t i = 0; i < causes.size(); ++i) {
    Cause& c = causes[i];
    std::string message = c.message;
    if (i == 0 && errors > 1)
      message += " (" + std::to_string(errors) + " clang errors in this run, none reported as kernel errors)";
    Diagnostic d = makeDiagnostic("TOOL009", paths.kernel_display, c.line, c.column, message, c.hint);
    d.notes = std::move(c.notes);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace portcheck::clangcheck

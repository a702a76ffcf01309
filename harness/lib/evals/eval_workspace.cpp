#include "evals/eval_workspace.h"

#include <fstream>

#include "workspace/workspace.h"

namespace portcheck::evals {

namespace fs = std::filesystem;

namespace {

// Copies the sources of `from` into `to`, leaving out the agent's golden.py (the task's replaces it), caches,
// the ledger and compile output.
void copyPortSources(const fs::path& from, const fs::path& to, std::error_code& ec) {
  fs::create_directories(to, ec);
  for (auto it = fs::recursive_directory_iterator(from, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    // Build output and caches as every walk skips them, and the attempt's ledger (read from the attempt).
    if (it->is_directory() && (isSkippedDirectory(name) || name == ".port-check")) {
      it.disable_recursion_pending();
      continue;
    }
    const fs::path rel = fs::relative(it->path(), from, ec);
    if (rel == "golden.py") continue;
    if (it->is_directory()) fs::create_directories(to / rel, ec);
    else if (it->is_regular_file()) fs::copy_file(it->path(), to / rel, fs::copy_options::overwrite_existing, ec);
    if (ec) return;
  }
}

bool placeProject(const EvalTask& task, const fs::path& sources, const fs::path& project, std::error_code& ec) {
  copyPortSources(sources, project / "pypto_src", ec);
  if (!ec) fs::copy_file(task.reference, project / "pypto_src" / "golden.py", fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::copy(task.original, project / "original", fs::copy_options::recursive, ec);
  return !ec;
}

}  // namespace

ScratchWorkspace makeScratchWorkspace(const EvalTask& task, const fs::path& attempt, const fs::path& root,
                                      const fs::path& library) {
  std::error_code ec;
  fs::remove_all(root, ec);
  fs::create_directories(root / "projects", ec);
  if (ec) return {{}, "cannot make the scratch workspace " + root.string() + ": " + ec.message()};
  std::ofstream(root / "port-check.json") << "{}\n";
  if (!placeProject(task, attempt / "pypto_src", root / "projects" / task.name, ec))
    return {{}, "cannot copy the attempt: " + ec.message()};
  if (!placeProject(task, task.naive, root / "projects" / (task.name + "_naive"), ec))
    return {{}, "cannot copy the task's naive form: " + ec.message()};
  std::error_code none;
  if (!library.empty() && fs::is_directory(library, none)) fs::create_directory_symlink(library, root / "pypto-lib", ec);
  if (ec) return {{}, "cannot link pypto-lib/ into the scratch workspace: " + ec.message()};
  return {root, ""};
}

}  // namespace portcheck::evals

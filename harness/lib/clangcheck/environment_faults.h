#pragma once
// Tells a kernel's own errors from faults of the environment the kernel compile check runs in. clang's errors
// on a kernel whose include path lacks a header (a CANN SDK header, the kernel's build's include directory),
// whose PTO-ISA headers are of another pin than the runtime's, or whose NPU-only code the CPU simulator cannot
// take (CCE built-ins and launch syntax, definitions the CPU stubs also make, headers that do not compile in
// the order the kernel includes them) are not errors in the kernel: each cause becomes one TOOL009 finding
// saying what is missing and how to fix it, and the run's clang errors (a cascade of it) are not reported.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "clangcheck/clang_output.h"
#include "core/diagnostic.h"

namespace portcheck::clangcheck {

// Lookups in the trees a fault is judged against, cached across the runs of one stage (thread-safe).
class HeaderTrees {
 public:
  // `used`: the PTO-ISA checkout on the include path; `pinned`: the PyPTO runtime's copy (the pin the
  // compiler was built with), when known and not the used one; `workspace`: the user's tree.
  HeaderTrees(std::filesystem::path used, std::optional<std::filesystem::path> pinned, std::filesystem::path workspace);

  const std::filesystem::path& used() const { return used_; }
  const std::optional<std::filesystem::path>& pinned() const { return pinned_; }
  // The commit of a checkout (from its .git), abbreviated to 8 digits; "" when unknown.
  static std::string commitOf(const std::filesystem::path& root);

  // Does `word` occur as an identifier in <root>/include?
  bool inIncludes(const std::filesystem::path& root, const std::string& word);
  // The first file of PTO-ISA's own sources outside include/ (its NPU tests, kernels, demos) calling `word(`,
  // relative to `root`; "" when none does.
  std::string callerOutsideIncludes(const std::filesystem::path& root, const std::string& word);
  // Workspace files (workspace-relative) whose path ends with "/" + `header` (or is `header`).
  std::vector<std::string> workspaceFilesNamed(const std::string& header);

 private:
  std::filesystem::path used_;
  std::optional<std::filesystem::path> pinned_;
  std::filesystem::path workspace_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const std::vector<std::string>>> words_;  // root -> sorted words
  std::map<std::pair<std::string, std::string>, std::string> callers_;
  std::optional<std::vector<std::string>> workspace_files_;
};

// One kernel's clang run as the classifier sees it.
struct ClangRun {
  PathMapping paths;
  std::string kernel_text;  // the kernel source (for the line of a CCE-syntax error)
};

// Classifies the run's messages: kernel findings (ISA009/ISA010) and environment findings (TOOL009). When
// the run has an environment fault its clang errors are dropped (counted in the TOOL009 message); warnings stay.
std::vector<Diagnostic> classifyClangRun(const std::vector<ClangMessage>& messages, const ClangRun& run,
                                         HeaderTrees& trees);

}  // namespace portcheck::clangcheck

#pragma once
// What the build says about a kernel file: whether it is compiled in AUTO mode, and with which include
// directories. A source that never tests __PTO_AUTO__ itself is still an AUTO-mode kernel when its build
// compiles it so; the evidence, strongest first:
//
//   command line   -D __PTO_AUTO__ given to port-check (--define)
//   compile_commands.json   the file's entry defines __PTO_AUTO__ (-D__PTO_AUTO__) or passes bisheng's
//                  --cce-pto-auto-enable; found at --compile-commands FILE, else compile_commands.json or
//                  build/compile_commands.json at the workspace root
//   CMakeLists.txt in the file's folder or a parent up to the workspace root: add_compile_definitions /
//                  add_definitions / target_compile_definitions naming __PTO_AUTO__ (a target's only when its
//                  sources name the file or are not listed there), or --cce-pto-auto-enable in the options
//
// Each answer says which evidence decided it (file:line and the words), for the finding and the JSON.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace portcheck::kernel {

struct BuildMode {
  bool auto_mode = false;
  std::string evidence;     // "kernels/a5/CMakeLists.txt:45: --cce-pto-auto-enable"
  std::string file;         // workspace-relative file of the evidence ("" for the command line)
  int line = 0;
};

class BuildEvidence {
 public:
  // `defines`: port-check's --define values (NAME or NAME=VALUE); `compile_commands`: --compile-commands.
  BuildEvidence(std::filesystem::path workspace_root, std::vector<std::string> defines,
                std::optional<std::filesystem::path> compile_commands);

  // The build's AUTO-mode evidence for a workspace-relative file; nullopt when the build says nothing.
  std::optional<BuildMode> modeOf(const std::string& rel_path) const;
  // -I / -isystem directories of the file's compile_commands.json entry (absolute).
  std::vector<std::string> includeDirsOf(const std::string& rel_path) const;
  // A short text naming the evidence for `rel_path` (lint cache keys).
  std::string fingerprint(const std::string& rel_path) const;
  // Why a --compile-commands file could not be used ("" when it was, or none was given).
  const std::string& problem() const { return problem_; }

 private:
  struct Entry {
    std::vector<std::string> args;
    std::string directory;
    std::string source;  // "compile_commands.json" as the workspace names it
  };
  struct Marker {  // one AUTO-mode statement of a CMakeLists.txt
    int line = 0;
    std::string text;
    std::string target;  // target_compile_definitions: its target; "" = the whole folder
  };
  struct CMakeFile {
    std::vector<Marker> markers;
    std::string text;
  };
  const CMakeFile* cmakeIn(const std::filesystem::path& dir) const;

  std::filesystem::path root_;
  std::vector<std::string> defines_;
  std::map<std::string, Entry> entries_;  // absolute normalised file -> entry
  std::string problem_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::unique_ptr<CMakeFile>> cmake_;  // folder -> its CMakeLists.txt (or null)
};

}  // namespace portcheck::kernel

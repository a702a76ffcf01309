#pragma once
// Turns paths as the compiler prints them into the paths port-check shows, and back into files on
// disk: CompileRecord::path_map first, then the source root and the output folder themselves.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/compile_facts.h"
#include "compiler/compile_record.h"

namespace portcheck {

class PathMapper {
 public:
  explicit PathMapper(const CompileRecord& record);

  // A path as printed by the compiler -> display path.
  std::string map(std::string_view path) const;
  // Every mapped prefix replaced inside free text (messages, quoted log lines).
  std::string mapText(std::string_view text) const;
  SourceLocation location(std::string_view file, int line, int column) const;

  // The display path lies in the user's source folder, or is another workspace file the program
  // imported (a pypto-lib block) / lies in the compiler output folder.
  bool isUserFile(std::string_view display) const;
  bool isOutputFile(std::string_view display) const;
  // The file on disk behind a user or output display path, when there is one.
  std::optional<std::filesystem::path> onDisk(std::string_view display) const;
  // Display path of a file found on disk under the source root or the output folder.
  std::string displayOf(const std::filesystem::path& absolute) const;

  const std::string& outDisplay() const { return out_display_; }
  const std::string& sourceDisplay() const { return source_display_; }
  const std::filesystem::path& sourceRoot() const { return source_root_; }
  const std::filesystem::path& outDir() const { return out_dir_; }

 private:
  // A workspace file outside the source root and the output folder, on disk.
  std::optional<std::filesystem::path> workspaceFile(std::string_view display) const;

  std::vector<std::pair<std::string, std::string>> prefixes_;  // longest first
  std::filesystem::path source_root_;
  std::filesystem::path out_dir_;
  std::filesystem::path workspace_root_;
  std::string source_display_;
  std::string out_display_;
};

}  // namespace portcheck

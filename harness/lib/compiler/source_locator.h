#pragma once
// Finds places in the user's Python sources for names the compiler uses: kernels (a `def`, or the
// n-th `with pl.at(` of an entry for `<entry>_incore_<n>`), and tile variables (`tx__ssa_v0` -> the
// line assigning `tx`), with the loc() annotations of generated .pto files as the first choice.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compile_facts.h"
#include "compiler/path_mapper.h"
#include "compiler/pto_loc_index.h"

namespace portcheck {

class SourceLocator {
 public:
  // Reads every .py under the source root (skipping the output folder, build_output/, passes_dump/,
  // __pycache__ and hidden folders; at most 400 files of at most 8 MiB).
  explicit SourceLocator(const PathMapper& paths);
  // Adds the loc() annotations of the .pto files in the output folder.
  void indexGeneratedPto(const std::filesystem::path& out_dir);

  // `def <name>(` (the column of `def`).
  std::optional<SourceLocation> functionDef(const std::string& name) const;
  // Where a kernel the compiler names comes from: `<entry>_incore_<n>[_aic|_aiv]` -> the n-th
  // `with pl.at(` in `def <entry>`; `<function>_<hint>` or `<hint>` (a hint starting with the function's
  // name) -> the `with` whose name_hint is <hint> in `def <function>`; otherwise `def <name>` (without
  // an _aic/_aiv suffix).
  std::optional<SourceLocation> kernel(const std::string& kernel_name) const;
  // The line that created tile `var` of `function` (dump or .pto SSA name).
  std::optional<SourceLocation> tile(const std::string& function, const std::string& var) const;
  // The user's variable behind a compiler name: "tx__ssa_v0" -> "tx", "acc__tile_l0_init" -> "acc".
  static std::string userVariable(const std::string& compiler_name);

 private:
  struct File {
    std::string display;
    std::vector<std::string> lines;
  };
  struct Region {
    const File* file = nullptr;
    int def_line = 0;  // 1-based
    int end_line = 0;  // inclusive
    int def_column = 0;
  };
  std::optional<Region> defRegion(const std::string& name) const;
  std::optional<SourceLocation> assignment(const std::string& variable, const std::optional<Region>& within) const;

  const PathMapper& paths_;
  std::vector<File> files_;
  PtoLocIndex pto_;
};

}  // namespace portcheck

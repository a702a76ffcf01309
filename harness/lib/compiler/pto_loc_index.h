#pragma once
// The `loc("<user .py>":L:C)` annotations PyPTO writes into generated .pto (PTO-ISA MLIR) files.
// They tie a generated line back to the user's line, and a tile's SSA name (%tx__ssa_v0) to the
// line that created it.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compile_text.h"

namespace portcheck {

// The user location of the op at 1-based `line` of a .pto text: the loc() on that line, else on the
// op's continuation lines (more indented lines right below it). nullopt when the op carries none.
std::optional<RawLocation> ptoUserLocation(const std::string& pto_text, int line);

// function name -> SSA value name (without '%') -> loc of its first definition.
class PtoLocIndex {
 public:
  void addText(const std::string& pto_text);
  // Every *.pto under out_dir/ptoas and out_dir/kernels (missing folders are fine).
  void addOutputFolder(const std::filesystem::path& out_dir);
  std::optional<RawLocation> find(const std::string& function, const std::string& value) const;
  bool empty() const { return defs_.empty(); }

 private:
  std::map<std::string, std::map<std::string, RawLocation>> defs_;
};

}  // namespace portcheck

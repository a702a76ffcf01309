#pragma once
// Modules a port imports from the workspace's pypto-lib/ folder. Ports put pypto-lib/<block> on
// sys.path (relative to their own file) and import the block as a top-level module:
//
//   sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "pypto-lib" / "matmul_bt"))
//   from matmul_bt import matmul_bt
//
// The compiler then compiles the block's kernels as part of the port. Adding the block's file to the
// port's unit lets the model resolve the import the way it resolves a sibling of pypto_src (a unit file
// whose module path ends with the module's), so calls reach the block's functions and the estimator
// covers its kernels, named as the compiler names them.
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/source_file.h"

namespace portcheck::dsl {

// Top-level modules the file imports (`import a.b`, `from a import x`; not relative imports), in order,
// without duplicates: the absolute ones of dsl/local_imports.h's importStatements. Dotted modules keep
// their dots.
std::vector<std::string> importedModules(std::string_view python_text);

// A pypto-lib/ folder to look modules up in: the working tree's, or the one staged in git's index.
struct LibraryFolder {
  std::vector<std::string> folders;  // the folders directly under pypto-lib/, sorted
  // pypto-lib/<rel> as a SourceFile named "pypto-lib/<rel>"; nullopt when absent or unreadable.
  std::function<std::optional<SourceFile>(const std::string& rel)> read;
};

// The working tree's pypto-lib/ (`workspace_root` absolute); no folders and nothing to read without one.
LibraryFolder diskLibrary(const std::filesystem::path& workspace_root);

// The pypto-lib/ files the unit imports and does not provide itself, transitively (a block importing
// another block), as workspace-relative SourceFiles like the unit's: for module M (dots as folders)
// pypto-lib/M.py, else pypto-lib/<folder>/M.py for the first folder (sorted) that has one. A module
// some file of the unit provides (its path, without .py, is M or ends with /M) is not looked up;
// unreadable files are skipped.
std::vector<SourceFile> importedLibraryFiles(const LibraryFolder& library, std::span<const SourceFile> unit);
inline std::vector<SourceFile> importedLibraryFiles(const std::filesystem::path& workspace_root,
                                                    std::span<const SourceFile> unit) {
  return importedLibraryFiles(diskLibrary(workspace_root), unit);
}

}  // namespace portcheck::dsl

#pragma once
// The modules a Python program file imports from disk, found the way Python finds them when the file
// is run as a script (`python models/x/decode.py`): sys.path[0] is the file's folder, plus the folders
// the file puts on sys.path itself (`sys.path.insert(0, str(Path(__file__).resolve().parent.parent))`,
// `os.path.dirname(__file__)`, a name bound to such a path, `/ "sub"` and os.path.join of a literal);
// relative imports (`from ..config import X`) from the importing module's own folder. A module found is
// read and its imports followed in turn (absolute ones against the entry's search folders, as Python
// does), so a model's `decode_fwd.py` is analysed with the layers and the config it imports.
//
// Only modules that exist as files are followed: `a.b` is <folder>/a/b.py or <folder>/a/b/__init__.py,
// and `from a import b` also tries <folder>/a/b.py (b a submodule). Standard library and installed
// packages are never on these folders, so they are not read.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/source_file.h"

namespace portcheck::dsl {

// One import statement as written: `from ..a.b import c, d` is {"a.b", 2, {"c", "d"}};
// `import a.b as x` is {"a.b", 0, {}}.
struct ImportStatement {
  std::string module;
  int level = 0;
  std::vector<std::string> names;
  bool from = false;
};

// Every import statement of a Python text (also inside functions and `try:` blocks; docstrings and
// comments skipped; parenthesised and backslash-continued name lists joined). Remembered per text for
// the run (a module imported by many files is scanned once).
std::vector<ImportStatement> importStatements(std::string_view python_text);

// Folders the file adds to sys.path, from the forms above, relative to `file_dir`; lexically normal.
std::vector<std::filesystem::path> sysPathAdditions(std::string_view python_text,
                                                   const std::filesystem::path& file_dir);

struct LocalFile {
  std::filesystem::path path;  // absolute, lexically normal
  SourceFile source;
};

// Reads a file found on disk (nullopt when it cannot be read as a source file).
using LocalReader = std::function<std::optional<SourceFile>(const std::filesystem::path& absolute)>;

// True when a regular file is at that absolute path (the resolution's probe of a candidate module).
using LocalProbe = std::function<bool(const std::filesystem::path& absolute)>;

inline constexpr std::size_t kMaxLocalImports = 96;  // a runaway chain of imports stops here

// The files `entries` import, transitively, in the order first found, without the entries themselves
// and at most `max_files` of them. `entries` are (absolute path, text) pairs of one program.
// `transitive` false: only the modules the entries import themselves. `exists` probes candidate modules
// (empty: the file system); a tree other than the disk (a git snapshot) gives its own with `read`.
std::vector<LocalFile> importedLocalFiles(const std::vector<LocalFile>& entries, const LocalReader& read,
                                          std::size_t max_files = kMaxLocalImports, bool transitive = true,
                                          const LocalProbe& exists = {});

}  // namespace portcheck::dsl

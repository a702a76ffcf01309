#pragma once
// The files one attempt of a port is made of: its pypto_src/ sources and the pypto-lib blocks they
// import (dsl::importedLibraryFiles), with their content hashes.
#include <string>
#include <vector>

#include "core/source_file.h"
#include "ledger/attempt.h"
#include "workspace/workspace.h"

namespace portcheck::ledger {

struct ProjectSources {
  std::vector<SourceFile> files;     // pypto_src sources, then the imported pypto-lib files; each by path
  std::vector<FileHash> hashes;      // the same files, same order
  std::string source_hash;           // of the pypto_src files: every path and its bytes
  std::string library_hash;          // of the pypto-lib files; "" when the port imports none
};

// Reads the project's sources from disk; a file that cannot be read as text is left out.
ProjectSources readProjectSources(const Workspace& ws, const Project& project);

}  // namespace portcheck::ledger

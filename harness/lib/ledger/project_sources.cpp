#include "ledger/project_sources.h"

#include "compiler/content_hash.h"
#include "core/text.h"
#include "dsl/library_imports.h"

namespace portcheck::ledger {

ProjectSources readProjectSources(const Workspace& ws, const Project& project) {
  ProjectSources out;
  for (const std::filesystem::path& p : project.sources) {
    ReadResult r = readSourceFile(p, ws.relative(p));
    if (r.file) out.files.push_back(std::move(*r.file));
  }
  std::size_t own = out.files.size();
  for (SourceFile& f : dsl::importedLibraryFiles(ws.root, out.files)) out.files.push_back(std::move(f));
  HashBuilder source, library;
  for (std::size_t i = 0; i < out.files.size(); ++i) {
    const SourceFile& f = out.files[i];
    out.hashes.push_back({f.path, contentHash(f.text)});
    (i < own ? source : library).add(f.path, out.hashes.back().hash);
  }
  out.source_hash = source.hex();
  out.library_hash = out.files.size() > own ? library.hex() : "";
  return out;
}

}  // namespace portcheck::ledger

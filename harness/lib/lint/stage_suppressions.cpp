#include "lint/stage_suppressions.h"

#include <map>
#include <optional>
#include <string>

#include "core/source_file.h"
#include "lint/suppression.h"
#include "workspace/workspace.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

bool suppressible(const Diagnostic& d) {
  return d.source == Stage::Estimator || d.source == Stage::Compiler || d.source == Stage::Runtime ||
         d.source == Stage::Golden;
}

// The suppression comments of each source file, read once; nullopt for what is not a source.
class SuppressionFiles {
 public:
  explicit SuppressionFiles(fs::path root) : root_(std::move(root)) {}

  Suppressions* of(const std::string& file) {
    auto [it, added] = files_.try_emplace(file);
    if (added) it->second = read(file);
    return it->second ? &*it->second : nullptr;
  }

 private:
  fs::path root_;
  std::map<std::string, std::optional<Suppressions>> files_;

  std::optional<Suppressions> read(const std::string& file) const {
    fs::path p(file);
    const char* prefix = isPythonSource(p) ? "#" : isKernelSource(p) ? "//" : nullptr;
    if (!prefix) return std::nullopt;
    if (p.is_relative()) p = root_ / p;
    ReadResult r = readSourceFile(p, file);
    if (!r.file) return std::nullopt;
    return parseSuppressions(*r.file, prefix);
  }
};

bool silencedAt(SuppressionFiles& files, const Diagnostic& d, const std::string& file, int line) {
  if (file.empty()) return false;
  Suppressions* s = files.of(file);
  if (!s || s->empty()) return false;
  Diagnostic at = d;
  at.file = file;
  at.line = line;
  return s->silences(at);
}

}  // namespace

void applyInlineSuppressions(std::vector<Diagnostic>& diagnostics, const fs::path& workspace_root) {
  SuppressionFiles files(workspace_root);
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    if (!suppressible(d)) return false;
    if (silencedAt(files, d, d.file, d.line)) return true;
    for (const DiagnosticNote& n : d.notes)
      if (silencedAt(files, d, n.file.empty() ? d.file : n.file, n.line)) return true;
    return false;
  });
}

}  // namespace portcheck

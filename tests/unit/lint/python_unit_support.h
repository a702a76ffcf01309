#pragma once
// One-file Python units, linted or estimated as the lint engine does a unit (default configuration).
#include <string>
#include <utility>
#include <vector>

#include "core/source_file.h"
#include "lint/linters.h"
#include "lint/sram_lint.h"
#include "workspace/config.h"

namespace portcheck::test {

inline SourceFile sourceOf(std::string path, std::string text) {
  SourceFile f;
  f.path = std::move(path);
  f.text = std::move(text);
  return f;
}

inline PythonUnit pythonUnitOf(std::string path, std::string text) {
  PythonUnit unit;
  unit.files.push_back(sourceOf(std::move(path), std::move(text)));
  return unit;
}

// The DSL rules and the SRAM estimate, as `port-check lint` reports them for the file.
inline std::vector<Diagnostic> lintPythonText(std::string path, std::string text, Platform platform = Platform::A2A3,
                                              const Config& config = Config{}) {
  return lintPythonUnit(pythonUnitOf(std::move(path), std::move(text)), LintSettings{platform, &config});
}

// The SRAM estimate alone: its findings, and its rows in `rows`.
inline std::vector<Diagnostic> estimatePythonText(std::string path, std::string text, std::vector<SramRow>& rows,
                                                  Platform platform = Platform::A2A3, const Config& config = Config{}) {
  return estimatePythonUnit(pythonUnitOf(std::move(path), std::move(text)), LintSettings{platform, &config}, rows);
}

}  // namespace portcheck::test

#pragma once
// The rule catalogue: one JSON record per rule under rules/, compiled into the binary.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"

namespace portcheck {

struct RuleExample {
  std::string language;  // "python", "cpp", "text" or "tree" (a folder layout)
  std::string code;
};

struct RuleInfo {
  std::string id;           // stable, e.g. "DSL101"
  std::string name;         // kebab-case slug, e.g. "tile-op-outside-incore"
  std::string family;       // DSL, AUTO, ISA, MEM, FUSE, PROJ, COMP, GOLD, TOOL ...
  Severity severity = Severity::Error;  // default severity
  Stage source = Stage::Lint;
  std::string summary;      // one line, used as SARIF shortDescription
  std::string description;  // what it does
  std::string rationale;    // why it matters
  std::string hint;         // default fix hint
  std::vector<RuleExample> bad;
  std::vector<RuleExample> good;
  std::vector<std::string> references;  // citations into the toolchain docs/sources
  std::string since;        // catalogue version that introduced it
  std::string path;         // rules/<family>/<ID>.json

  std::string docAnchor() const;  // "docs/rules.md#dsl101"
};

class Catalogue {
 public:
  // The catalogue built into this binary. Throws std::runtime_error when a record is malformed
  // (a test guards every record, so this cannot happen in a released build).
  static const Catalogue& builtin();
  // Parses records from (path, json text) pairs; errors name the file.
  static Catalogue fromRecords(const std::vector<std::pair<std::string, std::string>>& records);

  const RuleInfo* find(std::string_view id) const;
  const std::vector<RuleInfo>& rules() const;  // sorted by ID
  const std::string& version() const { return version_; }

 private:
  // The built-in catalogue parses a record when it is first asked for: a run touches a few of the
  // rules, and parsing every record up front was most of port-check's start-up.
  struct LazyRecord {
    std::string id;  // from the file name; the record must agree
    std::string path;
    std::string_view text;
    std::once_flag once;
    std::optional<RuleInfo> info;
  };
  const RuleInfo& parsed(LazyRecord& record) const;

  mutable std::vector<RuleInfo> rules_;              // eager catalogues; the built-in one once rules() ran
  std::vector<std::unique_ptr<LazyRecord>> lazy_;    // the built-in catalogue, sorted by id
  std::unique_ptr<std::once_flag> all_parsed_ = std::make_unique<std::once_flag>();
  std::string version_;
};

// Builds a diagnostic for a catalogued rule: severity, source and doc come from the catalogue;
// an unknown ID is a programming error and throws std::logic_error.
Diagnostic makeDiagnostic(std::string_view rule_id, std::string file, int line, int column, std::string message,
                          std::string hint = {});

}  // namespace portcheck

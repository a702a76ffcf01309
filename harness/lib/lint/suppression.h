#pragma once
// Inline suppression comments, shared by the source linters (the comment prefix is a parameter:
// "#" for Python, "//" for C++):
//
//   <prefix> port-check: ignore[ID, ID...]       silences those rules on the comment's own line
//                                                and on the line below it
//   <prefix> port-check: ignore-file[ID, ID...]  silences those rules in the whole file
//
// The marker must follow the comment prefix on the same line. IDs are kept with their positions
// so unknown or unused ones can be reported at the ID itself.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/source_file.h"
#include "rules/catalogue.h"

namespace portcheck {

struct SuppressedId {
  std::string id;
  int line = 0;    // where the ID is written
  int column = 0;  // 1-based code point column of the ID
  bool used = false;
};

struct Suppression {
  int line = 0;            // the comment's line
  bool file_level = false; // ignore-file[...]
  std::vector<SuppressedId> ids;
};

struct Suppressions {
  std::vector<Suppression> entries;

  bool empty() const { return entries.empty(); }
  // True when some comment names a rule whose ID starts with `prefix` (e.g. "AUTO").
  bool namesRule(std::string_view prefix) const {
    for (const Suppression& s : entries)
      for (const SuppressedId& id : s.ids)
        if (id.id.starts_with(prefix)) return true;
    return false;
  }
  // True when `d` (a finding in this file) is silenced; marks the matching ID used.
  bool silences(const Diagnostic& d);
  // Removes the silenced findings of this file from `diagnostics` (findings of other files and
  // findings without a line are kept unless a file-level suppression names their rule).
  void apply(const std::string& path, std::vector<Diagnostic>& diagnostics);
};

// Finds every suppression comment of `file`. Cheap when the file has none (one substring search).
Suppressions parseSuppressions(const SourceFile& file, std::string_view comment_prefix);

// What a linter reports about the suppression comments of one file after applying them.
struct SuppressionAudit {
  std::string unknown_rule;  // reported for an ID the catalogue does not know (e.g. DSL002, ISA012)
  std::string unused_rule;   // reported for an ID that silenced nothing (e.g. DSL003, ISA013)
  // The rules this linter could have reported: only their unused IDs are reported (a compile-stage
  // rule, or another linter's rule, silences findings this pass never sees).
  std::function<bool(const RuleInfo&)> judged;
};

// Appends the audit findings for `sup` (already applied to the file's findings, so `used` is set).
void auditSuppressions(const std::string& path, const Suppressions& sup, const SuppressionAudit& audit,
                       std::vector<Diagnostic>& out);

}  // namespace portcheck

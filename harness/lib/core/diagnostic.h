#pragma once
// The one diagnostic model every stage appends to and every emitter reads.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace portcheck {

enum class Severity { Info = 0, Warning = 1, Error = 2 };
// Which stage produced a finding. Tool = port-check itself could not do something (a stage skipped);
// Ledger = the attempt ledger's loop rules (docs/ledger.md), which read past attempts, not the source.
enum class Stage { Lint, Estimator, Compiler, Runtime, Golden, Tool, Ledger };

std::string_view toString(Severity s);
std::string_view toString(Stage s);
std::optional<Severity> parseSeverity(std::string_view text);
std::optional<Stage> parseStage(std::string_view text);

// On-chip memory figures of an SRAM finding (bytes).
struct SramFigures {
  std::string function;
  std::string space;  // Vec, Mat, Left, Right, Acc, Bias, ...
  std::int64_t used = 0;
  std::int64_t limit = 0;
};

// Extra located context, printed as GCC-style `note:` lines.
struct DiagnosticNote {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;
};

struct Diagnostic {
  std::string rule;                 // stable ID, e.g. "PROJ001"
  Severity severity = Severity::Error;
  Stage source = Stage::Lint;
  std::string file;                 // workspace-relative, '/' separated; empty when not tied to a file
  int line = 0;                     // 1-based; 0 = unknown
  int column = 0;                   // 1-based Unicode code points; 0 = unknown
  int end_line = 0;
  int end_column = 0;               // exclusive end, 1-based; 0 = unknown
  std::string message;
  std::string hint;                 // what to change
  std::string doc;                  // link into docs/rules.md
  std::optional<SramFigures> sram;
  std::vector<DiagnosticNote> notes;
};

// Deterministic order: file, line, column, rule, message.
bool diagnosticLess(const Diagnostic& a, const Diagnostic& b);

}  // namespace portcheck

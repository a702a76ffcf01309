#include "core/diagnostic.h"

#include <tuple>

namespace portcheck {

std::string_view toString(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::string_view toString(Stage s) {
  switch (s) {
    case Stage::Lint: return "lint";
    case Stage::Estimator: return "estimator";
    case Stage::Compiler: return "compiler";
    case Stage::Runtime: return "runtime";
    case Stage::Golden: return "golden";
    case Stage::Tool: return "tool";
    case Stage::Ledger: return "ledger";
  }
  return "tool";
}

std::optional<Severity> parseSeverity(std::string_view t) {
  if (t == "info" || t == "note") return Severity::Info;
  if (t == "warning") return Severity::Warning;
  if (t == "error") return Severity::Error;
  return std::nullopt;
}

std::optional<Stage> parseStage(std::string_view t) {
  for (Stage s :
       {Stage::Lint, Stage::Estimator, Stage::Compiler, Stage::Runtime, Stage::Golden, Stage::Tool, Stage::Ledger})
    if (toString(s) == t) return s;
  return std::nullopt;
}

bool diagnosticLess(const Diagnostic& a, const Diagnostic& b) {
  return std::tie(a.file, a.line, a.column, a.rule, a.message) <
         std::tie(b.file, b.line, b.column, b.rule, b.message);
}

}  // namespace portcheck

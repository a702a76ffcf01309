#pragma once
// Emitters turn the one Report into text, JSON, SARIF 2.1.0, JUnit XML or GitHub annotations.
// They only read the report; no check formats text itself.
#include <optional>
#include <string>
#include <string_view>

#include "core/report.h"

namespace portcheck {

enum class Format { Text, Json, Sarif, Junit, Github };

std::optional<Format> parseFormat(std::string_view text);
std::string_view toString(Format f);

struct EmitOptions {
  bool color = false;          // ANSI colour (text only)
  std::string doc_base_url;    // when set, rule doc links become absolute URLs (SARIF helpUri)
  // The lowest severity that fails the run (--fail-on); nullopt: none does (--fail-on never). JUnit
  // makes only these findings <failure>s.
  std::optional<Severity> failing_severity = Severity::Error;
  int exit_code = 0;           // what the command returns; SARIF's executionSuccessful is false for 2
};

// JSON report schema version; bump on any incompatible change (docs/json-format.md).
inline constexpr int kJsonSchemaVersion = 1;

std::string emitReport(const Report& report, Format format, const EmitOptions& options = {});

std::string emitText(const Report& report, const EmitOptions& options);
std::string emitJson(const Report& report, const EmitOptions& options);
std::string emitSarif(const Report& report, const EmitOptions& options);
std::string emitJunit(const Report& report, const EmitOptions& options);
std::string emitGithub(const Report& report, const EmitOptions& options);

// The doc link of a diagnostic under the options (absolute when a base URL is configured).
std::string docLink(std::string_view doc, const EmitOptions& options);

}  // namespace portcheck

// GCC-style text: `file:line:col: severity: message [RULE]`, an indented hint, note lines,
// then the SRAM table and a summary.
#include <cstdio>
#include <sstream>

#include "core/text.h"
#include "output/emitter.h"
#include "output/golden_table.h"
#include "output/schedule_table.h"
#include "output/sram_table.h"

namespace portcheck {
namespace {

struct Palette {
  bool on;
  const char* bold() const { return on ? "\x1b[1m" : ""; }
  const char* reset() const { return on ? "\x1b[0m" : ""; }
  const char* dim() const { return on ? "\x1b[2m" : ""; }
  const char* of(Severity s) const {
    if (!on) return "";
    switch (s) {
      case Severity::Error: return "\x1b[1;31m";
      case Severity::Warning: return "\x1b[1;35m";
      case Severity::Info: return "\x1b[1;36m";
    }
    return "";
  }
};

std::string location(const std::string& file, int line, int column) {
  if (file.empty()) return "port-check";
  std::string s = file;
  if (line > 0) {
    s += ":" + std::to_string(line);
    if (column > 0) s += ":" + std::to_string(column);
  }
  return s;
}

}  // namespace

std::string emitText(const Report& report, const EmitOptions& options) {
  Palette p{options.color};
  std::ostringstream out;
  for (const Diagnostic& d : report.diagnostics) {
    out << p.bold() << sanitizeUtf8(location(d.file, d.line, d.column)) << ":" << p.reset() << " " << p.of(d.severity)
        << toString(d.severity) << ":" << p.reset() << " " << sanitizeUtf8(d.message) << " [" << d.rule << "]\n";
    if (!d.hint.empty()) out << "    " << p.dim() << "hint: " << p.reset() << sanitizeUtf8(d.hint) << "\n";
    for (const DiagnosticNote& n : d.notes)
      out << p.bold() << sanitizeUtf8(location(n.file.empty() ? d.file : n.file, n.line, n.column)) << ":" << p.reset()
          << " note: " << sanitizeUtf8(n.message) << "\n";
  }
  if (!report.sram.empty()) out << "\n" << renderSramTable(report.sram);
  if (!report.golden.empty()) out << "\n" << renderGoldenTable(report.golden);
  if (!report.schedule.empty()) out << "\n" << renderScheduleTable(report.schedule);
  const int errors = report.count(Severity::Error), warnings = report.count(Severity::Warning),
            infos = report.count(Severity::Info);
  std::size_t files = report.run.files.size();
  out << (report.diagnostics.empty() && report.sram.empty() && report.golden.empty() ? "" : "\n") << errors << " error"
      << (errors == 1 ? "" : "s") << ", " << warnings << " warning" << (warnings == 1 ? "" : "s") << ", " << infos
      << " info in " << files << " file" << (files == 1 ? "" : "s") << "\n";
  return out.str();
}

}  // namespace portcheck

// GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=T::message`.
#include "core/text.h"
#include "output/emitter.h"

namespace portcheck {

namespace {

// Message data: % CR LF are escaped (actions/toolkit command.ts escapeData).
std::string escapeData(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

// Property values additionally escape ':' and ',' (escapeProperty).
std::string escapeProperty(std::string_view s) {
  std::string out;
  for (char c : escapeData(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

std::string_view command(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "notice";
  }
  return "warning";
}

}  // namespace

std::string emitGithub(const Report& report, const EmitOptions& options) {
  std::string out;
  for (const Diagnostic& d : report.diagnostics) {
    std::string props;
    auto add = [&](std::string_view key, const std::string& value) {
      props += (props.empty() ? " " : ",") + std::string(key) + "=" + escapeProperty(value);
    };
    if (!d.file.empty()) {
      add("file", sanitizeUtf8(d.file));
      if (d.line > 0) add("line", std::to_string(d.line));
      if (d.column > 0) add("col", std::to_string(d.column));
      if (d.end_line > 0) add("endLine", std::to_string(d.end_line));
      if (d.end_column > 0) add("endColumn", std::to_string(d.end_column));
    }
    add("title", "port-check " + d.rule);
    std::string message = d.message;
    if (!d.hint.empty()) message += "\n  hint: " + d.hint;
    if (!d.doc.empty()) message += "\n  doc: " + docLink(d.doc, options);
    out += "::" + std::string(command(d.severity)) + props + "::" + escapeData(sanitizeUtf8(message)) + "\n";
  }
  return out;
}

}  // namespace portcheck

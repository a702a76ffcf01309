#include "clangcheck/clang_output.h"

#include <regex>

#include "core/text.h"
#include "rules/catalogue.h"

namespace portcheck::clangcheck {

// Header paths are shown under the <pto-isa> placeholder so reports do not depend on the machine.
std::string displayClangPath(const std::string& file, const PathMapping& p) {
  if (file == p.kernel_as_printed) return p.kernel_display;
  if (!p.headers_root.empty() && file.rfind(p.headers_root, 0) == 0) return "<pto-isa>" + file.substr(p.headers_root.size());
  if (!p.workspace_root.empty() && file.size() > p.workspace_root.size() && file.rfind(p.workspace_root, 0) == 0 &&
      file[p.workspace_root.size()] == '/')
    return file.substr(p.workspace_root.size() + 1);
  return file;
}

namespace {

// "static assertion failed due to requirement '<long expression>': <message>" -> "static assertion failed: <message>".
std::string shorten(const std::string& text) {
  static const std::string kPrefix = "static assertion failed due to requirement '";
  if (text.rfind(kPrefix, 0) != 0) return text;
  std::size_t sep = text.rfind("': ");
  if (sep == std::string::npos || sep < kPrefix.size()) return text;
  return "static assertion failed: " + text.substr(sep + 3);
}

}  // namespace

std::vector<ClangMessage> parseClangOutput(std::string_view output) {
  static const std::regex kLine(R"(^(.+?):(\d+):(\d+): (fatal error|error|warning|note|remark): (.*)$)");
  static const std::regex kInclude(R"(^(?:In file included from|\s+from) (.+?):(\d+):$)");
  std::vector<ClangMessage> out;
  std::vector<std::pair<std::string, int>> includes;
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string_view::npos) end = output.size();
    std::string line(output.substr(start, end - start));
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch m;
    if (line.size() < 4096 && std::regex_match(line, m, kInclude)) {
      includes.emplace_back(m[1], parseIntOr(m[2].str()));
      continue;
    }
    if (line.size() > 4096 || !std::regex_match(line, m, kLine)) continue;  // snippets, "N errors generated."
    ClangMessage msg;
    msg.file = m[1];
    msg.line = parseIntOr(m[2].str());
    msg.column = parseIntOr(m[3].str());
    msg.severity = m[4];
    msg.text = m[5];
    if (msg.severity == "note") {
      if (!out.empty()) out.back().notes.push_back(std::move(msg));
      continue;
    }
    if (msg.severity == "remark") continue;
    // clang prints the include stack only when it changes: later messages share the previous one.
    if (includes.empty() && !out.empty()) includes = out.back().included_from;
    msg.included_from = std::move(includes);
    includes.clear();
    out.push_back(std::move(msg));
  }
  return out;
}

std::vector<Diagnostic> toDiagnostics(const std::vector<ClangMessage>& messages, const PathMapping& paths) {
  std::vector<Diagnostic> out;
  for (const ClangMessage& m : messages) {
    const ClangMessage* anchor = m.file == paths.kernel_as_printed ? &m : nullptr;
    for (const ClangMessage& n : m.notes)
      if (!anchor && n.file == paths.kernel_as_printed) anchor = &n;
    bool error = m.severity != "warning";
    int line = anchor ? anchor->line : 0, column = anchor ? anchor->column : 0;
    // No kernel line in the chain: the kernel's #include that pulled the failing header in.
    for (const auto& [file, at] : m.included_from)
      if (!anchor && file == paths.kernel_as_printed) line = at, column = 1;
    Diagnostic d = makeDiagnostic(error ? "ISA009" : "ISA010", paths.kernel_display, line, column, shorten(m.text));
    if (anchor != &m) d.notes.push_back({displayClangPath(m.file, paths), m.line, m.column, "clang: " + shorten(m.text)});
    for (const ClangMessage& n : m.notes) {
      bool pseudo = n.file.starts_with("<") && !(!paths.headers_root.empty() && n.file.starts_with(paths.headers_root));
      if (&n == anchor || pseudo) continue;  // <scratch space>, <built-in>
      d.notes.push_back({displayClangPath(n.file, paths), n.line, n.column, n.text});
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace portcheck::clangcheck

#include "compiler/ptoas_error_parser.h"

#include <regex>

#include "compiler/compile_text.h"
#include "core/text.h"

namespace portcheck {

std::vector<PtoasDiagnostic> parsePtoasDiagnostics(const std::string& text) {
  std::vector<PtoasDiagnostic> out;
  static const std::regex kLoc(R"re(loc\("([^"]*)":(\d{1,9}):(\d{1,9})\): (error|warning|note|remark): )re");
  for (std::string_view raw : splitLines(text)) {
    std::string l = trimCopy(raw.substr(0, kMaxLogLineBytes));
    std::smatch m;
    if (l.find("loc(\"") != std::string::npos && std::regex_search(l, m, kLoc)) {
      PtoasDiagnostic d;
      d.file = m[1].str();
      d.line = parseIntOr(m[2].str());
      d.column = parseIntOr(m[3].str());
      d.severity = m[4].str();
      d.message = trimCopy(l.substr(static_cast<std::size_t>(m.position(0) + m.length(0))));
      out.push_back(std::move(d));
      continue;
    }
    if (l.find("ptoas compilation failed") != std::string::npos) continue;
    // `error: <msg>` or `<tool>: error: <msg>` without a location.
    for (const char* severity : {"error", "warning"}) {
      std::string marker = std::string(severity) + ": ";
      std::size_t at = l.find(marker);
      if (at == std::string::npos) continue;
      bool at_start = at == 0;
      bool after_tool = at >= 2 && l.compare(at - 2, 2, ": ") == 0 && l.substr(0, at - 2).find(' ') == std::string::npos;
      if (!at_start && !after_tool) continue;
      PtoasDiagnostic d;
      d.severity = severity;
      d.message = trimCopy(l.substr(at + marker.size()));
      out.push_back(std::move(d));
      break;
    }
  }
  return out;
}

std::optional<PtoasMissing> parsePtoasMissing(const std::string& text) {
  PtoasMissing p;
  std::size_t root = text.find("PTOAS_ROOT is set to '");
  if (root != std::string::npos) {
    std::size_t start = root + 22;
    std::size_t end = text.find("' but no executable ptoas was found there", start);
    if (end == std::string::npos) return std::nullopt;
    p.ptoas_root = text.substr(start, end - start);
    std::size_t stop = text.find('\n', root);
    p.message = trimCopy(text.substr(root, stop == std::string::npos ? std::string::npos : stop - root));
    std::size_t tried = p.message.find("Tried: ");
    if (tried != std::string::npos) {
      static const std::regex kQuoted(R"('([^']*)')");
      std::string list = p.message.substr(tried + 7);
      for (std::sregex_iterator it(list.begin(), list.end(), kQuoted), e; it != e; ++it) p.tried.push_back((*it)[1].str());
    }
    return p;
  }
  std::size_t nf = text.find("ptoas binary not found.");
  if (nf == std::string::npos) return std::nullopt;
  std::size_t stop = text.find('\n', nf);
  p.message = trimCopy(text.substr(nf, stop == std::string::npos ? std::string::npos : stop - nf));
  return p;
}

}  // namespace portcheck

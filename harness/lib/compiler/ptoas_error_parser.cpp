#include "compiler/ptoas_error_parser.h"

#include <regex>

#include "compiler/compile_text.h"
#include "core/text.h"

namespace portcheck {

std::vector<PtoasDiagnostic> parsePtoasDiagnostics(const std::string& text) {
  std::vector<PtoasDiagnostic> out;
  static const std::regex kLoc(R"re(loc\("([^"]*)":(\d+):(\d+)\): (error|warning|note|remark): (.*)$)re");
  static const std::regex kBare(R"(^(?:\S+: )?(error|warning): (.*)$)");
  for (std::string_view raw : splitLines(text)) {
    std::string l = trimCopy(raw);
    std::smatch m;
    if (std::regex_search(l, m, kLoc)) {
      PtoasDiagnostic d;
      d.file = m[1].str();
      d.line = std::stoi(m[2].str());
      d.column = std::stoi(m[3].str());
      d.severity = m[4].str();
      d.message = trimCopy(m[5].str());
      out.push_back(std::move(d));
    } else if (std::regex_match(l, m, kBare) && l.find("ptoas compilation failed") == std::string::npos) {
      PtoasDiagnostic d;
      d.severity = m[1].str();
      d.message = trimCopy(m[2].str());
      out.push_back(std::move(d));
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

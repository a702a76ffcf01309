#include "compiler/perf_hint_parser.h"

#include <regex>

#include "compiler/compile_text.h"
#include "core/text.h"

namespace portcheck {

std::vector<PerfHint> parsePerfHints(const std::vector<std::string>& lines, const PathMapper& paths) {
  static const std::regex kHint(R"(^\[perf_hint ([^\]\s]{1,64})\] ([^:]{1,200}): )");
  std::vector<PerfHint> out;
  for (const std::string& raw : lines) {
    std::string l = logPayload(raw);
    std::smatch m;
    if (!startsWith(l, "[perf_hint ") || !std::regex_search(l, m, kHint, std::regex_constants::match_continuous))
      continue;
    PerfHint h;
    h.code = m[1].str();
    h.check = trimCopy(m[2].str());
    std::string message = l.substr(static_cast<std::size_t>(m.length(0)));
    if (auto at = takeTrailingAt(message)) h.location = paths.location(at->file, at->line, at->column);
    h.message = message;
    out.push_back(std::move(h));
  }
  return out;
}

std::optional<PerfHintSummary> parsePerfHintSummary(const std::vector<std::string>& lines, const PathMapper& paths) {
  static const std::regex kSummary(R"(^\[perf_hint\] (\d+) hints? across (\d+) sites?(?:; see (.*))?$)");
  for (const std::string& raw : lines) {
    std::string l = logPayload(raw);
    std::smatch m;
    if (!startsWith(l, "[perf_hint] ") || l.size() > 4096 || !std::regex_match(l, m, kSummary)) continue;
    PerfHintSummary s;
    s.hints = parseIntOr(m[1].str());
    s.sites = parseIntOr(m[2].str());
    if (m[3].matched) s.path = paths.map(trimCopy(m[3].str()));
    return s;
  }
  return std::nullopt;
}

}  // namespace portcheck

#include "compiler/warning_parser.h"

#include <regex>

#include "compiler/compile_text.h"
#include "core/text.h"

namespace portcheck {

std::vector<CompilerWarning> parseWarningLines(const std::vector<std::string>& lines, const PathMapper& paths) {
  static const std::regex kWarning(R"(^\[warning\] \[([^\]]{1,200})\] (?:\(([^)]{0,200})\) )?)");
  std::vector<CompilerWarning> out;
  for (const std::string& raw : lines) {
    std::string l = logPayload(raw);
    std::smatch m;
    if (!startsWith(l, "[warning] [") ||
        !std::regex_search(l, m, kWarning, std::regex_constants::match_continuous))
      continue;
    CompilerWarning w;
    w.check = m[1].str();
    w.phase = m[2].matched ? m[2].str() : std::string();
    std::string message = l.substr(static_cast<std::size_t>(m.length(0)));
    if (auto at = takeTrailingAt(message)) w.location = paths.location(at->file, at->line, at->column);
    w.message = message;
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<CompilerWarning> parsePassLog(const std::string& text, const std::string& log_display,
                                          const PathMapper& paths) {
  (void)paths;
  std::string dump_display = log_display;
  if (endsWith(dump_display, ".log")) dump_display = dump_display.substr(0, dump_display.size() - 4) + ".py";
  std::vector<CompilerWarning> out;
  for (std::string_view raw : splitLines(text)) {
    // `<dump>[:<l>:<c>]: warning: <message> [<rule>]`; snippet and caret lines do not have the marker.
    std::string l = trimCopy(raw.substr(0, kMaxLogLineBytes));
    std::size_t marker = l.find(": warning: ");
    std::size_t marker_len = 11;
    if (marker == std::string::npos) continue;
    CompilerWarning w;
    std::string where = l.substr(0, marker);
    std::string message = l.substr(marker + marker_len);
    if (!message.empty() && message.back() == ']') {
      std::size_t open = message.rfind(" [");
      if (open != std::string::npos) {
        w.check = message.substr(open + 2, message.size() - open - 3);
        message = message.substr(0, open);
      }
    }
    w.message = message;
    if (auto loc = parseRawLocation(where))
      w.dump_location = SourceLocation{dump_display, loc->line, loc->column};
    else if (where.find(' ') == std::string::npos && endsWith(where, ".py"))
      w.dump_location = SourceLocation{dump_display, 0, 0};
    else
      continue;
    // The phase is the pass the log belongs to: passes_dump/NN_after_<Pass>.log.
    std::string base = std::filesystem::path(log_display).stem().string();
    std::size_t after = base.find("_after_");
    w.phase = after == std::string::npos ? base : base.substr(after + 7);
    w.location = w.dump_location;
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace portcheck

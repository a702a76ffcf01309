#include "compiler/warning_parser.h"

#include <regex>

#include "compiler/compile_text.h"
#include "core/text.h"

namespace portcheck {

std::vector<CompilerWarning> parseWarningLines(const std::vector<std::string>& lines, const PathMapper& paths) {
  static const std::regex kWarning(R"(^\[warning\] \[([^\]]+)\] (?:\(([^)]*)\) )?(.*)$)");
  std::vector<CompilerWarning> out;
  for (const std::string& raw : lines) {
    std::string l = logPayload(raw);
    std::smatch m;
    if (!std::regex_match(l, m, kWarning)) continue;
    CompilerWarning w;
    w.check = m[1].str();
    w.phase = m[2].matched ? m[2].str() : std::string();
    std::string message = m[3].str();
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
  static const std::regex kLocated(R"(^(.+?):(\d+):(\d+): (warning|error|note): (.*?)(?: \[([^\]]+)\])?$)");
  static const std::regex kBare(R"(^(.+?): (warning|error|note): (.*?)(?: \[([^\]]+)\])?$)");
  std::vector<CompilerWarning> out;
  for (std::string_view raw : splitLines(text)) {
    std::string l = trimCopy(raw);
    std::smatch m;
    CompilerWarning w;
    if (std::regex_match(l, m, kLocated)) {
      w.message = m[5].str();
      w.check = m[6].matched ? m[6].str() : std::string();
      w.dump_location = SourceLocation{dump_display, std::stoi(m[2].str()), std::stoi(m[3].str())};
    } else if (std::regex_match(l, m, kBare)) {
      w.message = m[3].str();
      w.check = m[4].matched ? m[4].str() : std::string();
      w.dump_location = SourceLocation{dump_display, 0, 0};
    } else {
      continue;
    }
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

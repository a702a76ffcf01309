#include "compiler/verifier_report_parser.h"

#include <regex>

#include "compiler/compile_text.h"
#include "compiler/memory_error_parser.h"
#include "core/text.h"

namespace portcheck {

bool isVerifierReport(const std::string& message) {
  return message.find("IR Verification Report") != std::string::npos;
}

std::vector<CompilerError> parseVerifierReport(const std::string& exception_type, const std::string& message,
                                               const PathMapper& paths) {
  std::vector<CompilerError> out;
  if (!isVerifierReport(message)) return out;
  std::vector<std::string> lines = logLines(dropCppTraceback(message));
  std::string headline;
  for (const std::string& l : lines) {
    std::string_view t = trim(l);
    if (t.empty()) continue;
    if (t != "IR Verification Report") headline = std::string(t);
    break;
  }
  static const std::regex kEntry(R"(^\[(\d+)\] (ERROR|WARNING) - (.+)$)");
  CompilerError* current = nullptr;
  for (const std::string& raw : lines) {
    std::string l = trimCopy(raw);
    std::smatch m;
    if (startsWith(l, "[") && l.size() < 512 && std::regex_match(l, m, kEntry)) {
      if (m[2].str() != "ERROR") {
        current = nullptr;
        continue;
      }
      CompilerError e;
      e.rule = "COMP003";
      e.kind = "verifier";
      e.via = m[3].str();
      e.exception = exception_type;
      e.headline = headline;
      out.push_back(std::move(e));
      current = &out.back();
      continue;
    }
    if (!current) continue;
    if (startsWith(l, "Message: ")) {
      current->message = l.substr(9);
    } else if (startsWith(l, "Location: ")) {
      if (auto loc = parseRawLocation(trim(std::string_view(l).substr(10))))
        current->location = paths.location(loc->file, loc->line, loc->column);
    } else if (startsWith(l, "Error Code:") || startsWith(l, "Status:")) {
      if (startsWith(l, "Status:")) current = nullptr;
    } else if (!l.empty() && !current->message.empty() && !startsWith(l, "Total diagnostics")) {
      current->message += " " + l;  // a message wrapped over several lines
    }
  }
  static const std::regex kFunctionOverflow(R"(^Function '([^']+)': )");
  for (CompilerError& e : out) {
    std::smatch m;
    if (!std::regex_search(e.message, m, kFunctionOverflow, std::regex_constants::match_continuous)) continue;
    e.function = m[1].str();
    if (auto f = parseOverflowSentence(e.message.substr(static_cast<std::size_t>(m.length(0))))) {
      e.kind = "oom";
      e.via = "AllocatedMemoryAddr property verifier";
      e.space = f->space;
      e.used = f->used;
      e.limit = f->limit;
      e.note = f->note;
    }
  }
  return out;
}

}  // namespace portcheck

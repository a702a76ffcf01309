#include "compiler/python_exception_parser.h"

#include <regex>

#include "compiler/compile_text.h"
#include "core/text.h"

namespace portcheck {
namespace {

// `pkg.mod.TypeName: message` or a bare `TypeName`.
bool splitExceptionLine(const std::string& line, std::string& type, std::string& message) {
  std::size_t colon = line.find(':');
  std::string head = line.substr(0, colon);
  if (head.empty() || head.size() > 256) return false;
  static const std::regex kType(R"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)");
  if (!std::regex_match(head, kType)) return false;
  type = head;
  bool has_message = colon != std::string::npos;
  message.clear();
  if (has_message) {
    message = line.substr(colon + 1);
    if (!message.empty() && message[0] == ' ') message.erase(0, 1);
  }
  // A bare word is an exception only when it looks like one (KeyboardInterrupt, SystemExit, FooError).
  if (!has_message && !endsWith(type, "Error") && !endsWith(type, "Exception") && !endsWith(type, "Interrupt") &&
      type != "SystemExit")
    return false;
  return true;
}

}  // namespace

std::vector<TracebackFrame> parseTracebackFrames(const std::vector<std::string>& lines) {
  static const std::regex kFrame(R"re(^\s*File "([^"]+)", line (\d{1,9}))re");
  std::vector<TracebackFrame> frames;
  for (const std::string& l : lines) {
    std::smatch m;
    if (!startsWith(trim(l), "File \"") || !std::regex_search(l, m, kFrame, std::regex_constants::match_continuous))
      continue;
    TracebackFrame f;
    f.file = m[1].str();
    f.line = parseIntOr(m[2].str());
    std::string rest = l.substr(static_cast<std::size_t>(m.length(0)));
    if (startsWith(rest, ", in ")) f.function = trimCopy(rest.substr(5));
    frames.push_back(std::move(f));
  }
  return frames;
}

std::optional<PythonException> parseLoggedException(const std::vector<std::string>& lines) {
  std::size_t start = lines.size();
  for (std::size_t i = lines.size(); i-- > 0;)
    if (trim(lines[i]) == "Traceback (most recent call last):") {
      start = i;
      break;
    }
  if (start == lines.size()) return std::nullopt;
  std::vector<std::string> frame_lines;
  std::size_t i = start + 1;
  for (; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.empty() || l[0] == ' ' || l[0] == '\t') {
      frame_lines.push_back(l);
      continue;
    }
    break;
  }
  if (i >= lines.size()) return std::nullopt;
  PythonException e;
  std::string first;
  if (!splitExceptionLine(lines[i], e.type, first)) return std::nullopt;
  e.type = reportedTypeName(e.type);
  e.message = first;
  for (std::size_t k = i + 1; k < lines.size(); ++k) e.message += "\n" + lines[k];
  while (!e.message.empty() && (e.message.back() == '\n' || e.message.back() == ' ')) e.message.pop_back();
  e.frames = parseTracebackFrames(frame_lines);
  return e;
}

std::optional<PythonException> adapterException(const AdapterResult& adapter) {
  if (!adapter.present || adapter.exception_type.empty()) return std::nullopt;
  PythonException e;
  e.type = reportedTypeName(adapter.exception_type);
  e.message = stripAnsi(sanitizeUtf8(adapter.exception_message));
  if (!adapter.traceback.empty()) e.frames = parseTracebackFrames(logLines(adapter.traceback));
  return e;
}

std::string reportedTypeName(const std::string& type) {
  std::size_t first = type.find('.');
  if (first == std::string::npos || type.find('.', first + 1) == std::string::npos) return type;
  return shortTypeName(type);
}

std::string shortTypeName(const std::string& type) {
  std::size_t dot = type.rfind('.');
  return dot == std::string::npos ? type : type.substr(dot + 1);
}

}  // namespace portcheck

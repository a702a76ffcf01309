#include "compiler/python_exception_parser.h"

#include <regex>

#include "compiler/compile_text.h"
#include "core/text.h"

namespace portcheck {
namespace {

const std::regex& frameRegex() {
  static const std::regex kFrame(R"re(^\s*File "([^"]+)", line (\d+)(?:, in (.*))?$)re");
  return kFrame;
}

// `pkg.mod.TypeName: message` or a bare `TypeName`.
bool splitExceptionLine(const std::string& line, std::string& type, std::string& message) {
  static const std::regex kHead(R"(^([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)(?:: ?(.*))?$)");
  std::smatch m;
  if (!std::regex_match(line, m, kHead)) return false;
  type = m[1].str();
  message = m[2].matched ? m[2].str() : std::string();
  // A bare word is an exception only when it looks like one (KeyboardInterrupt, SystemExit, FooError).
  if (!m[2].matched && !endsWith(type, "Error") && !endsWith(type, "Exception") && !endsWith(type, "Interrupt") &&
      type != "SystemExit")
    return false;
  return true;
}

}  // namespace

std::vector<TracebackFrame> parseTracebackFrames(const std::vector<std::string>& lines) {
  std::vector<TracebackFrame> frames;
  for (const std::string& l : lines) {
    std::smatch m;
    if (!std::regex_match(l, m, frameRegex())) continue;
    TracebackFrame f;
    f.file = m[1].str();
    f.line = std::stoi(m[2].str());
    f.function = m[3].matched ? trimCopy(m[3].str()) : std::string();
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

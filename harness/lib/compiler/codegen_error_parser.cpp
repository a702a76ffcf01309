#include "compiler/codegen_error_parser.h"

#include <cctype>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

#include "compiler/compile_text.h"
#include "compiler/pto_loc_index.h"
#include "compiler/ptoas_error_parser.h"
#include "core/text.h"

namespace portcheck {
namespace {

bool isSeparatorRow(std::string_view l) {
  std::string_view t = trim(l);
  if (t.size() < 3) return false;
  for (char c : t)
    if (c != '-' && c != '+') return false;
  return true;
}

std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Removes the blanks a wrap put inside the quoted file name of loc("...") (real paths rarely hold
// blanks; a sanitized table can break a path mid-word where textwrap's long-word rule does not apply).
std::string rejoinLocPaths(std::string s) {
  std::size_t p = 0;
  while ((p = s.find("loc(\"", p)) != std::string::npos) {
    std::size_t start = p + 5;
    std::size_t end = s.find("\":", start);
    if (end == std::string::npos) break;
    std::string path = s.substr(start, end - start);
    std::string fixed;
    for (char c : path)
      if (c != ' ') fixed += c;
    s.replace(start, path.size(), fixed);
    p = start + fixed.size();
  }
  return s;
}

}  // namespace

std::vector<CodegenFailure> parseFailureLines(const std::vector<std::string>& lines) {
  static const std::regex kFunction(R"(^Failed to compile function '([^']+)': ?)");
  static const std::regex kGroup(R"(^Failed to compile group '([^']+)' \[([^\]]*)\]: ?)");
  static const std::regex kOrch(R"(^Failed to generate orchestration '([^']+)': ?)");
  const auto continuous = std::regex_constants::match_continuous;
  std::vector<CodegenFailure> out;
  CodegenFailure* current = nullptr;
  for (const std::string& raw : lines) {
    std::string l = logPayload(raw);
    std::smatch m;
    CodegenFailure f;
    bool head = false;
    if (!startsWith(l, "Failed to ")) {
    } else if (std::regex_search(l, m, kFunction, continuous)) {
      f.unit = "function";
      f.name = m[1].str();
      f.text = l.substr(static_cast<std::size_t>(m.length(0)));
      head = true;
    } else if (std::regex_search(l, m, kGroup, continuous)) {
      f.unit = "group";
      f.name = m[1].str();
      const std::string members = replaceAll(m[2].str(), ",", "\n");
      for (std::string_view part : splitLines(members))
        if (!trim(part).empty()) f.members.push_back(trimCopy(part));
      f.text = l.substr(static_cast<std::size_t>(m.length(0)));
      head = true;
    } else if (std::regex_search(l, m, kOrch, continuous)) {
      f.unit = "orchestration";
      f.name = m[1].str();
      f.text = l.substr(static_cast<std::size_t>(m.length(0)));
      head = true;
    }
    if (head) {
      out.push_back(std::move(f));
      current = &out.back();
      continue;
    }
    if (!current) continue;
    if (trim(raw) == "Traceback (most recent call last):" || parseLoggerLine(raw)) {
      current = nullptr;
      continue;
    }
    current->text += "\n" + raw;
  }
  for (CodegenFailure& f : out) f.text = trimCopy(dropCppTraceback(f.text));
  return out;
}

bool isCodegenTable(const std::string& message) {
  static const std::regex kHead(R"((^|\n)\s*\d+ function\(s\) failed to compile:)");
  return std::regex_search(message, kHead);
}

std::string unwrapTableCell(const std::vector<std::string>& pieces, std::size_t width) {
  std::string out;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const std::string& piece = pieces[i];
    if (i == 0) {
      out = piece;
      continue;
    }
    const std::string& prev = pieces[i - 1];
    bool long_word_break = prev.size() >= width && !piece.empty() && piece[0] != ' ';
    bool hyphen_break = prev.size() >= 2 && prev.back() == '-' && std::isalnum(static_cast<unsigned char>(prev[prev.size() - 2])) &&
                        !piece.empty() && std::isalnum(static_cast<unsigned char>(piece[0]));
    out += (long_word_break || hyphen_break) ? piece : " " + piece;
  }
  return rejoinLocPaths(out);
}

std::vector<CodegenFailure> parseCodegenTable(const std::string& text) {
  std::vector<CodegenFailure> out;
  std::vector<std::vector<std::string>> cells;
  bool in_table = false;
  bool header_seen = false;
  for (std::string_view raw : splitLines(text)) {
    std::string l(raw);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    std::string_view t = trim(l);
    if (!in_table) {
      static const std::regex kHead(R"(^\d+ function\(s\) failed to compile:$)");
      std::string ts(t);
      if (std::regex_match(ts, kHead)) in_table = true;
      continue;
    }
    if (t.empty()) {
      if (header_seen && !out.empty()) break;
      continue;
    }
    if (startsWith(t, "Full details:") || startsWith(t, "[")) break;
    std::size_t bar = l.find('|');
    if (bar == std::string::npos) {
      if (isSeparatorRow(l)) continue;
      break;
    }
    if (isSeparatorRow(l)) continue;
    std::string name = trimCopy(std::string_view(l).substr(0, bar));
    std::string cell = l.substr(bar + 1);
    if (!cell.empty() && cell[0] == ' ') cell.erase(0, 1);
    while (!cell.empty() && cell.back() == ' ') cell.pop_back();
    if (!header_seen) {  // "Function | Error"
      header_seen = true;
      continue;
    }
    if (!name.empty()) {
      CodegenFailure f;
      f.name = name;
      out.push_back(std::move(f));
      cells.emplace_back();
    }
    if (!cells.empty()) cells.back().push_back(cell);
  }
  for (std::size_t i = 0; i < out.size() && i < cells.size(); ++i) out[i].text = unwrapTableCell(cells[i]);
  return out;
}

std::string codegenDetailsPath(const std::string& text) {
  for (std::string_view l : splitLines(text)) {
    std::string_view t = trim(l);
    if (startsWith(t, "Full details:")) return trimCopy(t.substr(13));
  }
  return {};
}

std::vector<CodegenFailure> parseCodegenErrorsFile(const std::string& text) {
  std::vector<CodegenFailure> out;
  static const std::regex kBlockHead(R"(^  \[(.+)\]$)");
  const std::string separator(72, '=');
  CodegenFailure* current = nullptr;
  for (std::string_view raw : splitLines(text)) {
    std::string l(raw);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    std::smatch m;
    if (std::regex_match(l, m, kBlockHead)) {
      CodegenFailure f;
      f.name = m[1].str();
      out.push_back(std::move(f));
      current = &out.back();
      continue;
    }
    if (l == separator) {
      current = nullptr;
      continue;
    }
    if (current) current->text += (current->text.empty() ? "" : "\n") + l;
  }
  for (CodegenFailure& f : out) f.text = trimCopy(dropCppTraceback(f.text));
  return out;
}

std::vector<CodegenFailure> mergeCodegenFailures(const std::vector<CodegenFailure>& from_log,
                                                 const std::vector<CodegenFailure>& from_table,
                                                 const std::vector<CodegenFailure>& from_file) {
  std::vector<CodegenFailure> out;
  auto find = [&](const std::string& name) -> CodegenFailure* {
    for (CodegenFailure& f : out)
      if (f.name == name) return &f;
    return nullptr;
  };
  // Order: the table's (the compiler's own order), then anything only the log or the file names.
  for (const auto* source : {&from_table, &from_file, &from_log})
    for (const CodegenFailure& f : *source)
      if (!find(f.name)) out.push_back(CodegenFailure{"", f.name, {}, ""});
  for (CodegenFailure& f : out) {
    for (const CodegenFailure& l : from_log)
      if (l.name == f.name) {
        f.unit = l.unit;
        f.members = l.members;
      }
    for (const auto* source : {&from_file, &from_log, &from_table}) {
      if (!f.text.empty()) break;
      for (const CodegenFailure& s : *source)
        if (s.name == f.name && !s.text.empty()) {
          f.text = s.text;
          break;
        }
    }
  }
  return out;
}

namespace {

// ptoas failed and printed no error: its output (the module and its own pass-by-pass debug trace) just
// ends, as when it dies on a signal (pypto reports its stderr, not its exit status). The message names
// the last pass it started.
std::optional<std::string> ptoasSilentStop(const std::string& payload, const std::vector<PtoasDiagnostic>& diags) {
  for (const PtoasDiagnostic& d : diags)
    if (d.severity == "error") return std::nullopt;
  static const std::regex kErrorLine(R"((^|\n)[^\n]*\berror: )");
  if (std::regex_search(payload, kErrorLine)) return std::nullopt;
  static const std::regex kPassStart(R"(DEBUG: Start (\w+) Pass)");
  std::string last;
  for (std::sregex_iterator it(payload.begin(), payload.end(), kPassStart), end; it != end; ++it) last = (*it)[1];
  if (last.empty() && payload.find("[Debug]") == std::string::npos && payload.find("=== [") == std::string::npos)
    return std::nullopt;
  return last.empty() ? std::string("ptoas stopped without an error message (its output ends in its own debug trace)")
                      : "ptoas stopped without an error message in its " + last +
                            " pass (its output ends in its own debug trace)";
}

}  // namespace

CompilerError classifyCodegenFailure(const CodegenFailure& failure, const std::string& exception_type,
                                     const PathMapper& paths) {
  CompilerError e;
  e.exception = exception_type;
  e.unit = failure.unit;
  e.function = failure.name;
  e.members = failure.members;
  CppMessage cpp = splitCppMessage(failure.text);
  if (cpp.check_failed)
    e.check_failed = CheckFailed{cpp.check_failed->expr,
                                 cpp.check_failed->source.empty() ? "" : paths.map(cpp.check_failed->source),
                                 cpp.check_failed->line};
  std::string payload = cpp.payload;

  if (auto missing = parsePtoasMissing(payload)) {
    e.rule = "COMP008";
    e.kind = "ptoas";
    e.subkind = "ptoas_not_found";
    e.message = paths.mapText(missing->message);
    e.ptoas_root = missing->ptoas_root;
    e.tried = missing->tried;
    return e;
  }

  if (startsWith(payload, "ptoas compilation failed:") || payload.find("loc(\"") != std::string::npos) {
    e.rule = "COMP007";
    e.kind = "ptoas";
    std::vector<PtoasDiagnostic> diags = parsePtoasDiagnostics(payload);
    if (auto stop = ptoasSilentStop(payload, diags)) {
      e.rule = "COMP013";
      e.subkind = "silent_stop";
      e.message = *stop;
      return e;
    }
    const PtoasDiagnostic* first = nullptr;
    for (const PtoasDiagnostic& d : diags)
      if (d.severity == "error") {
        first = &d;
        break;
      }
    if (!first && !diags.empty()) first = &diags.front();
    if (first) {
      e.message = first->message;
      if (!first->file.empty()) {
        e.location = paths.location(first->file, first->line, first->column);
        // A location in a generated .pto: map it back through the op's loc() annotation.
        if (endsWith(e.location.file, ".pto")) {
          if (auto on_disk = paths.onDisk(e.location.file)) {
            std::string pto = readText(*on_disk);
            if (auto user = ptoUserLocation(pto, first->line))
              e.user_location = paths.location(user->file, user->line, user->column);
          }
        }
      }
    } else {
      std::string rest = payload.substr(std::min(payload.size(), std::string("ptoas compilation failed:").size()));
      e.message = trimCopy(rest.empty() ? payload : rest);
    }
    return e;
  }

  static const std::regex kMisplaced(R"(Misplaced (?:builtin )?op '[^']+' in \w+ function)");
  std::smatch m;
  if (std::regex_search(payload, m, kMisplaced)) {
    e.rule = "COMP009";
    e.kind = "codegen";
    e.subkind = "misplaced_op";
    e.message = payload;
    return e;
  }

  e.rule = "COMP006";
  e.kind = "codegen";
  std::string first_line = payload;
  if (auto span = takeTrailingSpan(first_line)) {
    e.location = paths.location(span->file, span->line, span->column);
  }
  e.message = first_line;
  return e;
}

}  // namespace portcheck

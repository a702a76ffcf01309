#include "compiler/parser_error_parser.h"

#include <cctype>

#include "compiler/compile_text.h"
#include "core/text.h"

namespace portcheck {
namespace {

bool isBacktraceNote(std::string_view l) {
  return startsWith(trim(l), "note: run with `PTO_BACKTRACE=1`");
}

// Snippet lines: "   |", "12 | code", "   |     ^^^ label".
bool isSnippetLine(std::string_view l) {
  std::size_t i = 0;
  while (i < l.size() && l[i] == ' ') ++i;
  while (i < l.size() && std::isdigit(static_cast<unsigned char>(l[i]))) ++i;
  while (i < l.size() && l[i] == ' ') ++i;
  return i < l.size() && l[i] == '|';
}

}  // namespace

std::vector<RenderedParserError> parseRenderedParserErrors(const std::vector<std::string>& lines) {
  std::vector<RenderedParserError> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string head = logPayload(lines[i]);
    if (!startsWith(head, "Error: ")) continue;
    RenderedParserError e;
    e.message = trimCopy(std::string_view(head).substr(7));
    std::size_t j = i + 1;
    bool has_arrow = false;
    if (j < lines.size()) {
      std::string_view l = trim(lines[j]);
      if (startsWith(l, "--> ")) {
        if (auto loc = parseRawLocation(trim(l.substr(4)))) {
          e.file = loc->file;
          e.line = loc->line;
          e.column = loc->column;
        }
        has_arrow = true;
        ++j;
      }
    }
    bool closed = false;
    std::string* continued = nullptr;  // help/note text wrapped onto following lines
    for (; j < lines.size(); ++j) {
      std::string_view l = lines[j];
      std::string_view t = trim(l);
      if (isBacktraceNote(l)) {
        closed = true;
        ++j;
        break;
      }
      if (startsWith(t, "= help:")) {
        e.help = trimCopy(t.substr(7));
        continued = &e.help;
        continue;
      }
      if (startsWith(t, "= note:")) {
        e.note = trimCopy(t.substr(7));
        continued = &e.note;
        continue;
      }
      if (t.empty() || isSnippetLine(l)) {
        continued = nullptr;
        continue;
      }
      if (continued && startsWith(l, "     ")) {  // indented continuation of a help/note line
        *continued += " " + std::string(t);
        continue;
      }
      if (startsWith(t, "Error: ") || startsWith(t, "Traceback (most recent call last):")) break;
      if (!has_arrow) break;  // not a rendered block after all
    }
    if (!has_arrow && !closed) continue;
    out.push_back(std::move(e));
    i = j > i ? j - 1 : i;
  }
  return out;
}

}  // namespace portcheck

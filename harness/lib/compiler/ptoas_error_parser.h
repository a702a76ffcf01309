#pragma once
// What ptoas says when PyPTO runs it (`ptoas compilation failed: <stderr>`), and the two
// "ptoas missing" messages of pypto's _ptoas_locate:
//   loc("<file>":L:C): error: <message>        (file = the user's .py, or the generated .pto)
//   ptoas binary not found. Set PTOAS_ROOT ... / Download from: ...
//   PTOAS_ROOT is set to '<r>' but no executable ptoas was found there. Tried: '<a>', '<b>', '<c>'.
#include <optional>
#include <string>
#include <vector>

namespace portcheck {

struct PtoasDiagnostic {
  std::string file;  // as printed; empty for a diagnostic without loc()
  int line = 0;
  int column = 0;
  std::string severity;  // error, warning, note, remark
  std::string message;
};

// Every `loc(...): <severity>: <message>` and bare `error: <message>` line of a ptoas stderr text.
std::vector<PtoasDiagnostic> parsePtoasDiagnostics(const std::string& text);

struct PtoasMissing {
  std::string message;             // the first sentence (or the whole PTOAS_ROOT sentence)
  std::string ptoas_root;          // when PTOAS_ROOT was set
  std::vector<std::string> tried;  // the candidates it lists
};
std::optional<PtoasMissing> parsePtoasMissing(const std::string& text);

}  // namespace portcheck

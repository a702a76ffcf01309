#pragma once
// Codegen and ptoas failures. PyPTO collects them per unit and reports them three ways:
//  - a log line per unit: `Failed to compile function '<f>': <exc>`,
//    `Failed to compile group '<g>' [<aic>, <aiv>]: <exc>`, `Failed to generate orchestration '<f>': <exc>`;
//  - the exception (PartialCodegenError, or RuntimeError when nothing was produced): a table
//    `Function | Error` whose Error column is textwrap-wrapped at 60 columns, ending with
//    `Full details: <out>/report/codegen_errors.txt`;
//  - report/codegen_errors.txt: the same table, then `  [<name>]\n<full exception text>` blocks
//    separated by 72 '='.
// The full text is taken from the file, else the log line, else the unwrapped table cell.
#include <optional>
#include <string>
#include <vector>

#include "compiler/compile_facts.h"
#include "compiler/path_mapper.h"

namespace portcheck {

struct CodegenFailure {
  std::string unit;  // function, group, orchestration ("" when only the table names it)
  std::string name;
  std::vector<std::string> members;
  std::string text;  // the unit's exception text
};

// The `Failed to ...` lines of the log with their continuation lines.
std::vector<CodegenFailure> parseFailureLines(const std::vector<std::string>& lines);

// The rows of a failure table (exception message or codegen_errors.txt), the Error column unwrapped.
std::vector<CodegenFailure> parseCodegenTable(const std::string& text);
// The path after `Full details:` in a failure table, as printed.
std::string codegenDetailsPath(const std::string& text);
// The `  [<name>]` blocks of codegen_errors.txt.
std::vector<CodegenFailure> parseCodegenErrorsFile(const std::string& text);

// Undoes textwrap.wrap(width=60) on the pieces of one table cell.
std::string unwrapTableCell(const std::vector<std::string>& pieces, std::size_t width = 60);

// True when `message` is a failure table ("<n> function(s) failed to compile:").
bool isCodegenTable(const std::string& message);

// One failure -> a CompilerError: ptoas missing (COMP008), a ptoas diagnostic (COMP007, a location in
// a generated .pto mapped back to the user's line through its loc()), a misplaced op (COMP009) or
// another codegen failure (COMP006).
CompilerError classifyCodegenFailure(const CodegenFailure& failure, const std::string& exception_type,
                                     const PathMapper& paths);

// All failures of one compile, merged by unit name from the three sources (any may be absent).
std::vector<CodegenFailure> mergeCodegenFailures(const std::vector<CodegenFailure>& from_log,
                                                 const std::vector<CodegenFailure>& from_table,
                                                 const std::vector<CodegenFailure>& from_file);

}  // namespace portcheck

#pragma once
// What CPython refuses while reading a source file, before any parsing: bytes that do not decode as
// UTF-8 (PEP 263), brackets nested deeper than its tokenizer allows, indentation deeper than it allows.
// tree-sitter accepts all three, so without these checks such a file would lint clean and then fail
// the compile's import.
#include <optional>

#include "core/diagnostic.h"
#include "core/source_file.h"

namespace portcheck {

// CPython's tokenizer limits (Parser/tokenizer.h: MAXLEVEL, MAXINDENT).
inline constexpr int kPythonMaxBracketNesting = 200;
inline constexpr int kPythonMaxIndentLevels = 99;

// DSL001 for the first of these problems in `file`, nullopt when CPython can read it.
std::optional<Diagnostic> pythonSourceLimitProblem(const SourceFile& file);

// For a file that does not parse: DSL001 in CPython's words when a bracket explains it, at the bracket
// CPython points to: "unmatched ')'", "closing parenthesis ']' does not match opening parenthesis '('"
// (tokenizer errors, at the closer) or "'(' was never closed" (at the innermost opener left open).
// nullopt when the brackets balance (then the error is something else).
std::optional<Diagnostic> pythonBracketProblem(const SourceFile& file);

}  // namespace portcheck

#pragma once
// Where the functions and incore kernels of a port's sources are, by line, so a change or a finding can
// be named by the code it is in: Python files through the DSL model (functions, pl.at regions and
// InCore functions with the kernel names the compiler gives them), C++ kernel files as one kernel each.
#include <span>
#include <string>
#include <vector>

#include "core/source_file.h"
#include "ledger/attempt.h"

namespace portcheck::ledger {

struct CodeSpan {
  std::string file;
  std::string name;     // function (Class.method for methods) or kernel name
  int first_line = 0;   // the first decorator or the def; a region's with / for line
  int last_line = 0;
  bool kernel = false;  // an incore kernel rather than a function
};

std::vector<CodeSpan> codeSpans(std::span<const SourceFile> files);

// Fills each change's functions and kernels: the spans its hunks touch in the new text (an added
// file touches all of its spans; a removed C++ kernel file is that kernel).
void attributeChanges(std::vector<FileChange>& changes, const std::vector<CodeSpan>& spans);

// The innermost function holding `line` of `file`; "" when none (or line 0).
std::string enclosingFunction(const std::vector<CodeSpan>& spans, const std::string& file, int line);

// Every function and kernel name, sorted, without duplicates.
std::vector<std::string> definedNames(const std::vector<CodeSpan>& spans);

}  // namespace portcheck::ledger

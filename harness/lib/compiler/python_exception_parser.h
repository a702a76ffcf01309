#pragma once
// The Python exception a compile ended with: from the adapter's result file when it caught one, else
// from the last `Traceback (most recent call last):` block of the log.
#include <optional>
#include <string>
#include <vector>

#include "compiler/compile_record.h"

namespace portcheck {

struct TracebackFrame {
  std::string file;  // as printed
  int line = 0;
  std::string function;
};

struct PythonException {
  std::string type;     // as printed, e.g. "ValueError", "pypto.Error", "pypto.backend.pto_backend.PartialCodegenError"
  std::string message;  // str(exc), may span many lines
  std::vector<TracebackFrame> frames;  // outermost first
};

// Frames of a formatted traceback (`  File "<f>", line <n>, in <fn>` lines).
std::vector<TracebackFrame> parseTracebackFrames(const std::vector<std::string>& lines);

// The exception at the end of the last traceback in `lines`.
std::optional<PythonException> parseLoggedException(const std::vector<std::string>& lines);

// The exception the adapter caught, when it reported one.
std::optional<PythonException> adapterException(const AdapterResult& adapter);

// The exception type as port-check reports it: pypto's top-level classes keep their package
// ("pypto.Error", "pypto.InternalError"), deeper ones lose their module path
// ("pypto.backend.pto_backend.PartialCodegenError" -> "PartialCodegenError"), builtins stay as they are.
std::string reportedTypeName(const std::string& type);

// The unqualified class name: "pypto.backend.pto_backend.PartialCodegenError" -> "PartialCodegenError".
std::string shortTypeName(const std::string& type);

}  // namespace portcheck

#pragma once
// Reads clang's text diagnostics (-fno-caret-diagnostics) and turns them into port-check diagnostics located
// in the user's kernel: an error raised inside the PTO-ISA headers moves to the first kernel line of its
// instantiation chain, and the header location and the rest of the chain become notes.
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"

namespace portcheck::clangcheck {

struct ClangMessage {
  std::string file;
  int line = 0;
  int column = 0;
  std::string severity;  // "error", "fatal error", "warning", "note", "remark"
  std::string text;
  std::vector<ClangMessage> notes;  // notes that follow a primary message
  std::vector<std::pair<std::string, int>> included_from;  // "In file included from FILE:LINE:" before it
};

// Primary messages (errors, warnings) with their notes, in output order.
std::vector<ClangMessage> parseClangOutput(std::string_view output);

struct PathMapping {
  std::string kernel_as_printed;  // the kernel path exactly as clang prints it (the command-line argument)
  std::string kernel_display;     // workspace-relative path for diagnostics
  std::string headers_root;       // the PTO-ISA checkout as clang prints it; shown as <pto-isa>
  std::string workspace_root;     // the workspace as clang prints it ("" = none); its files shown relative
};

// A path clang printed, as a report shows it: the kernel's display path, <pto-isa>/..., workspace-relative.
std::string displayClangPath(const std::string& file, const PathMapping& paths);

// ISA009 (errors) and ISA010 (warnings) for the kernel.
std::vector<Diagnostic> toDiagnostics(const std::vector<ClangMessage>& messages, const PathMapping& paths);

}  // namespace portcheck::clangcheck

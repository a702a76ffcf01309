#pragma once
// A source file read from disk (or from a git blob) with the limits and checks every reader needs.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace portcheck {

// Files larger than this are not parsed (reported instead): 8 MiB is far above any real port source.
inline constexpr std::uintmax_t kMaxSourceBytes = 8u << 20;

struct SourceFile {
  std::string path;     // workspace-relative display path ('/' separated)
  std::string text;     // raw bytes as read
  bool crlf = false;    // the file uses \r\n line ends

  // 1-based line and code-point column of a byte offset into text.
  std::pair<int, int> position(std::size_t byte_offset) const;
  // 1-based code-point column of a byte column within a 0-based row.
  int column(std::size_t row, std::size_t byte_column) const;
  std::string_view lineText(int line) const;  // 1-based, without the line end

 private:
  mutable std::vector<std::size_t> line_starts_;
  void indexLines() const;
};

// Why a file could not be taken as source text.
enum class ReadProblem { None, NotFound, Unreadable, NotRegular, TooLarge, Binary };

struct ReadResult {
  std::optional<SourceFile> file;
  ReadProblem problem = ReadProblem::None;
  std::string detail;  // human-readable reason, e.g. "file is 52428800 bytes; the limit is 8388608"
};

// Reads `path`; `display` is the path shown in diagnostics.
ReadResult readSourceFile(const std::filesystem::path& path, std::string display,
                          std::uintmax_t max_bytes = kMaxSourceBytes);
// Takes bytes already in memory (a staged blob); applies the same size and binary checks.
ReadResult sourceFromBytes(std::string bytes, std::string display, std::uintmax_t max_bytes = kMaxSourceBytes);

}  // namespace portcheck

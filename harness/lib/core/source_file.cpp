#include "core/source_file.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/text.h"

namespace portcheck {

void SourceFile::indexLines() const {
  if (!line_starts_.empty()) return;
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts_.push_back(i + 1);
}

std::pair<int, int> SourceFile::position(std::size_t offset) const {
  indexLines();
  offset = std::min(offset, text.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  std::size_t row = static_cast<std::size_t>(it - line_starts_.begin()) - 1;
  return {static_cast<int>(row) + 1, column(row, offset - line_starts_[row])};
}

int SourceFile::column(std::size_t row, std::size_t byte_column) const {
  indexLines();
  if (row >= line_starts_.size()) return static_cast<int>(byte_column) + 1;
  std::size_t start = line_starts_[row];
  std::size_t len = std::min(byte_column, text.size() - start);
  return codePointCount(std::string_view(text).substr(start, len)) + 1;
}

std::string_view SourceFile::lineText(int line) const {
  indexLines();
  if (line < 1 || static_cast<std::size_t>(line) > line_starts_.size()) return {};
  std::size_t start = line_starts_[line - 1];
  std::size_t end = text.find('\n', start);
  std::string_view l = std::string_view(text).substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return l;
}

ReadResult sourceFromBytes(std::string bytes, std::string display, std::uintmax_t max_bytes) {
  ReadResult r;
  if (bytes.size() > max_bytes) {
    r.problem = ReadProblem::TooLarge;
    r.detail = "file is " + std::to_string(bytes.size()) + " bytes; the limit for source files is " +
               std::to_string(max_bytes);
    return r;
  }
  if (std::memchr(bytes.data(), '\0', bytes.size()) != nullptr) {
    r.problem = ReadProblem::Binary;
    r.detail = "file contains NUL bytes; it is not source text";
    return r;
  }
  SourceFile f;
  f.path = std::move(display);
  f.crlf = bytes.find("\r\n") != std::string::npos;
  f.text = std::move(bytes);
  r.file = std::move(f);
  return r;
}

ReadResult readSourceFile(const std::filesystem::path& path, std::string display, std::uintmax_t max_bytes) {
  namespace fs = std::filesystem;
  ReadResult r;
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    // A dangling or looping symlink has no target status.
    r.problem = fs::is_symlink(fs::symlink_status(path, ec)) ? ReadProblem::Unreadable : ReadProblem::NotFound;
    r.detail = r.problem == ReadProblem::NotFound ? "no such file"
                                                  : "symbolic link cannot be resolved (dangling or a loop)";
    return r;
  }
  if (!fs::is_regular_file(st)) {
    r.problem = ReadProblem::NotRegular;
    r.detail = "not a regular file";
    return r;
  }
  std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > max_bytes) {
    r.problem = ReadProblem::TooLarge;
    r.detail = "file is " + std::to_string(size) + " bytes; the limit for source files is " + std::to_string(max_bytes);
    return r;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    r.problem = ReadProblem::Unreadable;
    r.detail = std::string("cannot open file: ") + std::strerror(errno);
    return r;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    r.problem = ReadProblem::Unreadable;
    r.detail = "read error";
    return r;
  }
  return sourceFromBytes(std::move(ss).str(), std::move(display), max_bytes);
}

}  // namespace portcheck

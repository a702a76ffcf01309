#pragma once
// A file compiled into the binary by cmake/EmbedFiles.cmake.
#include <cstddef>
#include <string_view>

namespace portcheck {

struct EmbeddedFile {
  const char* path;  // relative to the source tree root, e.g. "rules/PROJ/PROJ001.json"
  const char* data;
  std::size_t size;
  std::string_view bytes() const { return {data, size}; }
};

// Tables generated at build time (null-terminated; Count excludes the terminator).
extern const EmbeddedFile kCatalogueFiles[];
extern const std::size_t kCatalogueFilesCount;
extern const EmbeddedFile kResourceFiles[];
extern const std::size_t kResourceFilesCount;

}  // namespace portcheck

#include "core/file_stamp.h"

#include <sys/stat.h>

namespace portcheck {

std::optional<std::string> fileStamp(const std::filesystem::path& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

}  // namespace portcheck

#include "core/atomic_file.h"

#include <unistd.h>

#include <atomic>
#include <fstream>

namespace portcheck {

namespace fs = std::filesystem;

bool writeFileAtomically(const fs::path& path, std::string_view bytes, std::string& error, bool create_parents) {
  std::error_code ec;
  if (create_parents) fs::create_directories(path.parent_path(), ec);
  static std::atomic<unsigned> counter{0};
  fs::path tmp = path;
  tmp += ".tmp-port-check-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !out.flush()) {
      error = "cannot write " + path.string();
      out.close();
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    error = "cannot write " + path.string() + ": " + ec.message();
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

}  // namespace portcheck

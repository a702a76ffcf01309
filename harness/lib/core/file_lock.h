#pragma once
// An exclusive advisory lock (flock) on a lock file, held for the object's lifetime. Two port-check
// processes compiling the same program into the same cache take turns instead of deleting each
// other's output folder; the kernel drops the lock when a process dies, so no lock goes stale.
#include <filesystem>

namespace portcheck {

class FileLock {
 public:
  // Blocks until the lock is held. Creates the lock file (and its folder). When it cannot be created
  // (a read-only cache), held() is false and the caller goes on unlocked.
  explicit FileLock(const std::filesystem::path& lock_file);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace portcheck

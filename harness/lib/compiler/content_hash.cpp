#include "compiler/content_hash.h"

#include <git2.h>

#include <fstream>
#include <mutex>
#include <sstream>

namespace portcheck {

std::string contentHash(std::string_view bytes) {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
  git_oid oid;
  if (git_odb_hash(&oid, bytes.data(), bytes.size(), GIT_OBJECT_BLOB) != 0) return std::string(40, '0');
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

std::optional<std::string> fileHash(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return contentHash(ss.str());
}

HashBuilder& HashBuilder::add(std::string_view name, std::string_view value) {
  // Length-prefixed, so no choice of names and values can make two different inputs collide.
  text_ += std::to_string(name.size()) + ":" + std::string(name) + "=" + std::to_string(value.size()) + ":" +
           std::string(value) + "\n";
  return *this;
}

}  // namespace portcheck

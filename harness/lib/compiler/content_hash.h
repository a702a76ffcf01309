#pragma once
// Content hashes for the compile cache (SHA-1 through libgit2, as hex).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace portcheck {

// SHA-1 of `bytes` as 40 hex digits.
std::string contentHash(std::string_view bytes);

// SHA-1 of a file's bytes; nullopt when it cannot be read.
std::optional<std::string> fileHash(const std::filesystem::path& path);

// Accumulates named parts ("key=value" lines) and hashes the whole.
class HashBuilder {
 public:
  HashBuilder& add(std::string_view name, std::string_view value);
  std::string hex() const { return contentHash(text_); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace portcheck

#pragma once
// A file's size and modification time as one string ("size:sec.nsec"): what changes when a binary is
// rebuilt, cheap to read (one stat), for cache keys that name a program rather than hash it.
#include <filesystem>
#include <optional>
#include <string>

namespace portcheck {

// nullopt when the path is empty or cannot be stat'ed.
std::optional<std::string> fileStamp(const std::filesystem::path& path);

}  // namespace portcheck

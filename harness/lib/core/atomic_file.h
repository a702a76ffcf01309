#pragma once
// Writing a file so readers never see half of it: bytes go to a temporary file beside the target
// (named per process and call, so concurrent writers do not collide), then a rename replaces it.
#include <filesystem>
#include <string>
#include <string_view>

namespace portcheck {

// Returns false and sets `error` when the file cannot be written; the temporary is removed.
// With `create_parents`, missing parent folders are created first.
bool writeFileAtomically(const std::filesystem::path& path, std::string_view bytes, std::string& error,
                         bool create_parents = false);

}  // namespace portcheck

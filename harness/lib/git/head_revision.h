#pragma once
// The commit HEAD points at in a git repository, read from the files git keeps (.git/HEAD, the
// loose ref, packed-refs) so that commands which only name the toolchain's revision do not pay for
// starting libgit2 (its TLS set-up parses every system CA certificate, ~6 ms). Anything unusual
// (reftable, symbolic refs to symbolic refs, a worktree's commondir) falls back to libgit2.
#include <filesystem>
#include <optional>
#include <string>

namespace portcheck {

// The full 40-hex commit id, or nullopt when the files do not say it plainly.
std::optional<std::string> readHeadFromGitFiles(const std::filesystem::path& repo_dir);

}  // namespace portcheck

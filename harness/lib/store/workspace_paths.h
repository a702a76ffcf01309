#pragma once
// Machine-free cache keys and entries, as ccache's base_dir makes them: a path under the workspace
// root enters a key as `<port-check:workspace>/<relative path>`, and an entry stores it with the root replaced by
// the token `<port-check:workspace>`, which a read turns back into the reader's own root. Two checkouts of one
// commit at different paths, on one machine or many, then compute the same keys and share entries
// (docs/shared-cache.md). Paths outside the workspace (the toolchain's) stay as they are.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace portcheck::store {

inline constexpr std::string_view kWorkspaceToken = "<port-check:workspace>";

class WorkspacePaths {
 public:
  // An empty root, or the file system's root, rewrites nothing.
  explicit WorkspacePaths(const std::filesystem::path& workspace_root);

  // `p` as a key sees it: `<token>/rel` when `p` is the root or below it, else `p` unchanged.
  std::string keyed(const std::filesystem::path& p) const;
  // Every entry of a ':'-separated search path (PYTHONPATH) keyed.
  std::string keyedSearchPath(std::string_view folders) const;

  // An entry's text to store: each occurrence of the root (as written, or canonical) that ends at a
  // path boundary ('/', '"', ':' or the end) replaced by the token.
  std::string toPortable(std::string_view text) const;
  // A stored entry's text with the token replaced by this root (JSON-escaped).
  std::string toLocal(std::string_view text) const;

 private:
  std::string given_;               // the root as given: what a read writes back
  std::vector<std::string> roots_;  // the root as given and canonical, longest first
};

}  // namespace portcheck::store

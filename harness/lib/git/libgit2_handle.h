#pragma once
// Owning handles for libgit2 objects and the error type every git/ function throws.
#include <git2.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace portcheck::git {

// A libgit2 call failed; what() names the operation and libgit2's own message.
class GitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Initialises libgit2 once per process (thread-safe; never shut down, the process owns it).
void ensureLibgit2();

// Throws GitError("<what>: <libgit2 message>") when `rc` < 0; returns rc otherwise.
int check(int rc, const std::string& what);

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const {
    if (p) Free(p);
  }
};

using RepositoryPtr = std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>>;
using IndexPtr = std::unique_ptr<git_index, Deleter<git_index, git_index_free>>;
using TreePtr = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using BlobPtr = std::unique_ptr<git_blob, Deleter<git_blob, git_blob_free>>;
using DiffPtr = std::unique_ptr<git_diff, Deleter<git_diff, git_diff_free>>;
using ObjectPtr = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using CommitPtr = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using ConfigPtr = std::unique_ptr<git_config, Deleter<git_config, git_config_free>>;

}  // namespace portcheck::git

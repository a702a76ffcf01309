#include "ledger/line_diff.h"

#include <git2.h>

#include "git/libgit2_handle.h"

namespace portcheck::ledger {

namespace {

int collectHunk(const git_diff_delta*, const git_diff_hunk* h, void* payload) {
  static_cast<std::vector<Hunk>*>(payload)->push_back({h->old_start, h->old_lines, h->new_start, h->new_lines});
  return 0;
}

}  // namespace

std::vector<Hunk> diffLines(std::string_view before, std::string_view after) {
  std::vector<Hunk> hunks;
  if (before == after) return hunks;
  git::ensureLibgit2();
  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  options.context_lines = 0;
  options.interhunk_lines = 0;
  options.flags = GIT_DIFF_FORCE_TEXT;  // sources with a stray NUL are still diffed by line
  // libgit2 reads no further than the lengths given; an empty text is passed as a null buffer.
  git::check(git_diff_buffers(before.empty() ? nullptr : before.data(), before.size(), "a",
                              after.empty() ? nullptr : after.data(), after.size(), "b", &options, nullptr, nullptr,
                              collectHunk, nullptr, &hunks),
             "diff");
  return hunks;
}

}  // namespace portcheck::ledger

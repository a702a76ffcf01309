// Workspace-relative keys and tokenised entries (store/workspace_paths.h): two checkouts at different
// paths compute the same keys, and an entry written in one reads back with the other's paths.
#include <gtest/gtest.h>

#include "store/workspace_paths.h"
#include "test_support.h"

namespace portcheck::store {
namespace {

namespace fs = std::filesystem;

// Two checkouts of one repository and a toolchain outside both, under the temporary folder (none of
// them needs to exist: the rewriting is on path strings).
const std::string& scratch() {
  static const std::string base = (fs::temp_directory_path() / "port-check-workspace-paths").generic_string();
  return base;
}
std::string one() { return scratch() + "/one/repo"; }
std::string ci() { return scratch() + "/ci/checkout"; }
std::string tools() { return scratch() + "/toolchain"; }

TEST(WorkspacePaths, PathsUnderTheRootAreKeyedRelativeOthersStay) {
  WorkspacePaths a(one()), b(ci() + "/");
  EXPECT_EQ(a.keyed(one() + "/projects/p/pypto_src"), b.keyed(ci() + "/projects/p/pypto_src"));
  EXPECT_EQ(a.keyed(one()), std::string(kWorkspaceToken));
  EXPECT_EQ(a.keyed(one() + "/./projects/../pypto-lib"), std::string(kWorkspaceToken) + "/pypto-lib");
  // A sibling whose name starts with the root's is not below it.
  EXPECT_EQ(a.keyed(one() + "2/x.py"), one() + "2/x.py");
  EXPECT_EQ(a.keyed(tools() + "/pypto/python"), tools() + "/pypto/python");
  EXPECT_EQ(a.keyed("python3"), "python3");
}

TEST(WorkspacePaths, EverySearchPathEntryIsKeyed) {
  WorkspacePaths a(one()), b(ci());
  EXPECT_EQ(a.keyedSearchPath(one() + "/pypto-lib:" + tools() + "/python::" + one()),
            b.keyedSearchPath(ci() + "/pypto-lib:" + tools() + "/python::" + ci()));
  EXPECT_EQ(a.keyedSearchPath(tools() + "/x:" + tools() + "/y"), tools() + "/x:" + tools() + "/y");
  EXPECT_EQ(a.keyedSearchPath(""), "");
}

TEST(WorkspacePaths, AnEntryWrittenInOneCheckoutReadsBackWithTheOthersRoot) {
  WorkspacePaths writer(one()), reader(ci());
  const std::string entry = "{\"out_dir\": \"" + one() + "/.port-check-cache/compile/p-1/a2a3/out\", \"file\": \"" +
                            one() + "\", \"env\": \"" + one() + "/lib:" + tools() + "/t\", \"other\": \"" + one() +
                            "2/y\", \"msg\": \"see " + one() + "sitory\"}";
  const std::string stored = writer.toPortable(entry);
  EXPECT_EQ(stored.find(one() + "/"), std::string::npos) << stored;
  EXPECT_NE(stored.find(one() + "2/y"), std::string::npos) << "a sibling folder is kept: " << stored;
  EXPECT_NE(stored.find(one() + "sitory"), std::string::npos) << stored;
  const std::string read = reader.toLocal(stored);
  EXPECT_NE(read.find("\"out_dir\": \"" + ci() + "/.port-check-cache/compile/p-1/a2a3/out\""), std::string::npos)
      << read;
  EXPECT_NE(read.find("\"file\": \"" + ci() + "\""), std::string::npos) << read;
  EXPECT_NE(read.find("\"env\": \"" + ci() + "/lib:" + tools() + "/t\""), std::string::npos) << read;
  EXPECT_EQ(writer.toLocal(stored), entry) << "the writer reads back what it wrote";
}

TEST(WorkspacePaths, TheCanonicalFormOfASymlinkedRootIsTokenisedToo) {
  test::TempDir dir;
  dir.write("real/repo/a.txt", "");
  std::error_code ec;
  fs::create_directory_symlink(dir / "real/repo", dir / "link", ec);
  ASSERT_FALSE(ec) << ec.message();
  WorkspacePaths via_link(dir / "link");
  const std::string canonical = fs::weakly_canonical(dir / "real/repo").generic_string();
  const std::string stored = via_link.toPortable("\"" + canonical + "/a.txt\"");
  EXPECT_EQ(stored, "\"" + std::string(kWorkspaceToken) + "/a.txt\"");
  EXPECT_EQ(via_link.toLocal(stored), "\"" + (dir / "link").generic_string() + "/a.txt\"");
}

TEST(WorkspacePaths, NoRootOrTheFileSystemRootRewritesNothing) {
  for (const char* root : {"", "/", "relative/dir"}) {
    WorkspacePaths none{fs::path(root)};
    EXPECT_EQ(none.keyed("/a/b"), "/a/b") << root;
    EXPECT_EQ(none.toPortable("\"/a/b\""), "\"/a/b\"") << root;
    EXPECT_EQ(none.toLocal(std::string("x ") + std::string(kWorkspaceToken)), "x " + std::string(kWorkspaceToken))
        << root;
  }
}

}  // namespace
}  // namespace portcheck::store

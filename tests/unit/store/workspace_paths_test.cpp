// Workspace-relative keys and tokenised entries (store/workspace_paths.h): two checkouts at different
// paths compute the same keys, and an entry written in one reads back with the other's paths.
#include <gtest/gtest.h>

#include "store/workspace_paths.h"
#include "test_support.h"

namespace portcheck::store {
namespace {

namespace fs = std::filesystem;

TEST(WorkspacePaths, PathsUnderTheRootAreKeyedRelativeOthersStay) {
  WorkspacePaths a("/home/one/repo"), b("/srv/ci/checkout/");
  EXPECT_EQ(a.keyed("/home/one/repo/projects/p/pypto_src"), b.keyed("/srv/ci/checkout/projects/p/pypto_src"));
  EXPECT_EQ(a.keyed("/home/one/repo"), std::string(kWorkspaceToken));
  EXPECT_EQ(a.keyed("/home/one/repo/./projects/../pypto-lib"), std::string(kWorkspaceToken) + "/pypto-lib");
  // A sibling whose name starts with the root's is not below it.
  EXPECT_EQ(a.keyed("/home/one/repo2/x.py"), "/home/one/repo2/x.py");
  EXPECT_EQ(a.keyed("/opt/pypto/python"), "/opt/pypto/python");
  EXPECT_EQ(a.keyed("python3"), "python3");
}

TEST(WorkspacePaths, EverySearchPathEntryIsKeyed) {
  WorkspacePaths a("/home/one/repo"), b("/srv/ci/checkout");
  EXPECT_EQ(a.keyedSearchPath("/home/one/repo/pypto-lib:/opt/pypto/python::/home/one/repo"),
            b.keyedSearchPath("/srv/ci/checkout/pypto-lib:/opt/pypto/python::/srv/ci/checkout"));
  EXPECT_EQ(a.keyedSearchPath("/opt/x:/opt/y"), "/opt/x:/opt/y");
  EXPECT_EQ(a.keyedSearchPath(""), "");
}

TEST(WorkspacePaths, AnEntryWrittenInOneCheckoutReadsBackWithTheOthersRoot) {
  WorkspacePaths writer("/home/one/repo"), reader("/srv/ci/checkout");
  const std::string entry =
      R"({"out_dir": "/home/one/repo/.port-check-cache/compile/p-1/a2a3/out", "file": "/home/one/repo", )"
      R"("env": "/home/one/repo/lib:/opt/t", "other": "/home/one/repo2/y", "msg": "see /home/one/repository"})";
  const std::string stored = writer.toPortable(entry);
  EXPECT_EQ(stored.find("/home/one/repo/"), std::string::npos) << stored;
  EXPECT_NE(stored.find("/home/one/repo2/y"), std::string::npos) << "a sibling folder is kept: " << stored;
  EXPECT_NE(stored.find("/home/one/repository"), std::string::npos) << stored;
  const std::string read = reader.toLocal(stored);
  EXPECT_NE(read.find(R"("out_dir": "/srv/ci/checkout/.port-check-cache/compile/p-1/a2a3/out")"), std::string::npos)
      << read;
  EXPECT_NE(read.find(R"("file": "/srv/ci/checkout")"), std::string::npos) << read;
  EXPECT_NE(read.find(R"("env": "/srv/ci/checkout/lib:/opt/t")"), std::string::npos) << read;
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

#include <gtest/gtest.h>

#include "core/atomic_file.h"
#include "test_support.h"

namespace portcheck {
namespace {

TEST(AtomicFile, ReplacesTheFileAndLeavesNoTemporary) {
  test::TempDir dir;
  dir.write("report.txt", "old");
  std::string error;
  ASSERT_TRUE(writeFileAtomically(dir / "report.txt", "new", error)) << error;
  EXPECT_EQ(test::readFile(dir / "report.txt"), "new");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(AtomicFile, MissingParentIsAnErrorUnlessAskedToCreateIt) {
  test::TempDir dir;
  std::string error;
  EXPECT_FALSE(writeFileAtomically(dir / "a/b/out.json", "{}", error));
  EXPECT_NE(error.find("cannot write"), std::string::npos);
  error.clear();
  EXPECT_TRUE(writeFileAtomically(dir / "a/b/out.json", "{}", error, /*create_parents=*/true)) << error;
  EXPECT_EQ(test::readFile(dir / "a/b/out.json"), "{}");
}

}  // namespace
}  // namespace portcheck

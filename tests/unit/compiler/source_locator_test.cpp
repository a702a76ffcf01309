// SourceLocator::kernel: where a kernel the compiler names comes from in the user's sources.
#include <gtest/gtest.h>

#include "compiler/compile_record.h"
#include "compiler/path_mapper.h"
#include "compiler/source_locator.h"
#include "test_support.h"

namespace portcheck {
namespace {

const char* kProgram =
    "import pypto.language as pl\n"                                                     // 1
    "\n"                                                                                // 2
    "@pl.jit\n"                                                                         // 3
    "def proj(x, out):\n"                                                               // 4
    "    with pl.at(level=pl.Level.CORE_GROUP):\n"                                      // 5
    "        pass\n"                                                                    // 6
    "    with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"residual\"):\n"              // 7
    "        pass\n"                                                                    // 8
    "    with pl.at(\n"                                                                 // 9
    "        level=pl.Level.CORE_GROUP,\n"                                              // 10
    "        name_hint='proj_tail',\n"                                                  // 11
    "    ):\n"                                                                          // 12
    "        pass\n";                                                                   // 13

struct LocatorCase {
  test::TempDir dir;
  CompileRecord record;
  LocatorCase() {
    dir.write("pypto_src/program.py", kProgram);
    record.source_root = dir / "pypto_src";
    record.source_root_display = "projects/p/pypto_src";
  }
};

TEST(SourceLocator, AKernelNamedByItsScopesHintIsThatScope) {
  LocatorCase c;
  PathMapper paths(c.record);
  SourceLocator locator(paths);
  // <function>_incore_<n>: the n-th scope.
  auto first = locator.kernel("proj_incore_0_aiv");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->line, 5);
  // <function>_<hint>, for each half of a mixed group.
  for (const char* name : {"proj_residual", "proj_residual_aic", "proj_residual_aiv"}) {
    auto hinted = locator.kernel(name);
    ASSERT_TRUE(hinted) << name;
    EXPECT_EQ(hinted->file, "projects/p/pypto_src/program.py");
    EXPECT_EQ(hinted->line, 7) << name;
    EXPECT_EQ(hinted->column, 5) << name;
  }
  // A hint that starts with the function's name is the kernel's name as it is, on a `with` spread over lines.
  auto tail = locator.kernel("proj_tail_aic");
  ASSERT_TRUE(tail);
  EXPECT_EQ(tail->line, 9);
  // No such scope: nothing, rather than a wrong line.
  EXPECT_FALSE(locator.kernel("proj_absent"));
}

}  // namespace
}  // namespace portcheck

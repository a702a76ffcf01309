// Which interpreter the toolchain runs: --python, else PYPTO_PYTHON, else python3; a relative path is
// made absolute against the working folder, since the adapter starts in the port's folder.
#include <gtest/gtest.h>

#include "toolchain/toolchain.h"

namespace portcheck::toolchain_python_test {
namespace {

namespace fs = std::filesystem;

const char* noEnv(const char*) { return nullptr; }

TEST(ToolchainPython, ARelativePathIsMadeAbsoluteFromTheWorkingFolderWithoutResolvingLinks) {
  ToolchainOptions options;
  options.python = "../venv/bin/python";
  Toolchain t = detectToolchain(fs::current_path(), options, noEnv);
  EXPECT_EQ(t.python, (fs::current_path() / "../venv/bin/python").lexically_normal().string());
  EXPECT_TRUE(fs::path(t.python).is_absolute());
}

TEST(ToolchainPython, ABareNameStaysForPathLookupAndAnAbsolutePathStays) {
  ToolchainOptions options;
  options.python = "python3.11";
  EXPECT_EQ(detectToolchain(fs::current_path(), options, noEnv).python, "python3.11");
  options.python = "/opt/venv/bin/python";
  EXPECT_EQ(detectToolchain(fs::current_path(), options, noEnv).python, "/opt/venv/bin/python");
  EXPECT_EQ(detectToolchain(fs::current_path(), {}, noEnv).python, "python3");
}

TEST(ToolchainPython, PyptoPythonFromTheEnvironmentIsResolvedTheSameWay) {
  auto env = [](const char* name) -> const char* {
    return std::string(name) == "PYPTO_PYTHON" ? "venv/bin/python" : nullptr;
  };
  Toolchain t = detectToolchain(fs::current_path(), {}, env);
  EXPECT_EQ(t.python, (fs::current_path() / "venv/bin/python").string());
}

}  // namespace
}  // namespace portcheck::toolchain_python_test

// The bad-input matrix (docs/robustness.md): every kind of hostile input gives a clear diagnostic and
// the documented exit status (0 clean, 1 findings, 2 port-check could not do its job), through the
// port-check binary as a user or CI runs it. Rows covered elsewhere are listed in docs/robustness.md.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "robustness_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using test::runPortCheck;

// A workspace (git root marker) with one complete project.
struct MatrixWorkspace {
  test::TempDir dir;
  fs::path root = dir / "ws";
  MatrixWorkspace() {
    write(".git/HEAD", "ref: refs/heads/main\n");
    write("projects/p/pypto_src/golden.py", "RTOL = 1e-5\n");
  }
  fs::path write(const std::string& rel, const std::string& content) const {
    fs::path p = root / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  test::CommandResult run(const std::string& args, const std::string& prefix = "") const {
    return runPortCheck(args, root, prefix);
  }
};

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

TEST(BadInput, EmptyFilesAreCleanAndAnEmptyConfigIsAToolError) {
  MatrixWorkspace w;
  w.write("projects/p/pypto_src/empty.py", "");
  w.write("projects/p/pypto_src/kernels/empty.cpp", "");
  auto r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "0 errors, 1 warning")) << r.out;  // golden.py declares no CONTRACT
  EXPECT_TRUE(contains(r.out, "[PROJ002]")) << r.out;
  w.write("port-check.json", "");
  r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "port-check.json: error: configuration is not a JSON object")) << r.out;
  EXPECT_TRUE(contains(r.out, "[TOOL004]")) << r.out;
}

TEST(BadInput, ABinaryFileIsReportedNotParsed) {
  MatrixWorkspace w;
  w.write("projects/p/pypto_src/blob.py", std::string("\x7f" "ELF\x02\x01\x01\0\0\0garbage", 16));
  w.write("projects/p/pypto_src/kernels/blob.cpp", std::string("\0\0\0\0", 4));
  auto r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "projects/p/pypto_src/blob.py: error: cannot check projects/p/pypto_src/blob.py: file "
                              "contains NUL bytes; it is not source text [TOOL002]"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "cannot check projects/p/pypto_src/kernels/blob.cpp: file contains NUL bytes")) << r.out;
}

TEST(BadInput, InvalidUtf8InPythonIsTheSyntaxErrorPythonWouldRaise) {
  MatrixWorkspace w;
  w.write("projects/p/pypto_src/latin.py", "import pypto.language as pl\nNAME = \"caf\xe9\"\n");
  auto r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "projects/p/pypto_src/latin.py:2:12: error: the file is not valid UTF-8 (byte 0xE9), so "
                              "Python cannot read it [DSL001]"))
      << r.out;
  // Machine-readable output stays valid UTF-8 JSON.
  r = w.run("lint --format json projects/p");
  nlohmann::json j = nlohmann::json::parse(r.out.substr(0, r.out.rfind('}') + 1), nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  // A PEP 263 coding declaration makes the same bytes legal.
  w.write("projects/p/pypto_src/latin.py", "# -*- coding: latin-1 -*-\nNAME = \"caf\xe9\"\n");
  r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST(BadInput, AFiftyMegabyteFileIsRefusedWithoutReadingIt) {
  MatrixWorkspace w;
  fs::path big = w.write("projects/p/pypto_src/big.py", "");
  fs::resize_file(big, 50u << 20);  // sparse: nothing is written to disk
  w.write("projects/p/pypto_src/huge_line.py", "x = '" + std::string(6u << 20, 'a') + "'\n");  // under the limit
  auto r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "cannot check projects/p/pypto_src/big.py: file is 52428800 bytes; the limit for source "
                              "files is 8388608 [TOOL002]"))
      << r.out.substr(0, 2000);
  EXPECT_FALSE(contains(r.out, "huge_line.py")) << r.out.substr(0, 2000);
}

TEST(BadInput, DeepNestingIsWherePythonStopsNotACrash) {
  MatrixWorkspace w;
  w.write("projects/p/pypto_src/parens.py",
          "import pypto.language as pl\nx = " + std::string(50000, '(') + "1" + std::string(50000, ')') + "\n");
  std::string ifs = "def f(x):\n";
  std::string indent = " ";
  for (int i = 0; i < 150; ++i, indent += " ") ifs += indent + "if x:\n";
  ifs += indent + "pass\n";
  w.write("projects/p/pypto_src/blocks.py", ifs);
  // C++ has no such limit in clang's parser that matters here: the kernel linter must just survive.
  w.write("projects/p/pypto_src/kernels/deep.cpp",
          "int f() { return " + std::string(20000, '(') + "1" + std::string(20000, ')') + "; }\n");
  auto r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  // CPython: "too many nested parentheses" at the 201st '(' (column 5 + 200).
  EXPECT_TRUE(contains(r.out, "projects/p/pypto_src/parens.py:2:205: error: too many nested parentheses (Python allows "
                              "200) [DSL001]"))
      << r.out;
  // CPython: IndentationError "too many levels of indentation" on the 100th level (line 101).
  EXPECT_TRUE(contains(r.out, "projects/p/pypto_src/blocks.py:101:101: error: too many levels of indentation (Python "
                              "allows 99) [DSL001]"))
      << r.out;
}

TEST(BadInput, CrlfFilesGiveTheSameFindingsAsLf) {
  MatrixWorkspace w;
  const std::string lf = "import pypto.language as pl\n\ndef f(:\n    return x\n";
  std::string crlf;
  for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  w.write("projects/p/pypto_src/a.py", lf);
  auto lf_run = w.run("lint projects/p");
  w.write("projects/p/pypto_src/a.py", crlf);
  auto crlf_run = w.run("lint projects/p");
  EXPECT_EQ(lf_run.exit_code, 1) << lf_run.out;
  EXPECT_EQ(crlf_run.exit_code, lf_run.exit_code);
  EXPECT_EQ(crlf_run.out, lf_run.out);
  EXPECT_TRUE(contains(crlf_run.out, "projects/p/pypto_src/a.py:3:7: error: missing ')' [DSL001]")) << crlf_run.out;
}

TEST(BadInput, SymlinkLoopsAreToolErrorsNamedAsLinks) {
  MatrixWorkspace w;
  fs::create_symlink("loop_b.py", w.root / "projects/p/pypto_src/loop_a.py");
  fs::create_symlink("loop_a.py", w.root / "projects/p/pypto_src/loop_b.py");
  auto r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "cannot check projects/p/pypto_src/loop_a.py: symbolic link cannot be resolved (dangling "
                              "or a loop) [TOOL002]"))
      << r.out;
  r = w.run("lint projects/p/pypto_src/loop_a.py");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "input path 'projects/p/pypto_src/loop_a.py' is a symbolic link that cannot be resolved "
                              "(dangling or a loop) [TOOL001]"))
      << r.out;
  // A project folder that links to itself does not make the walk loop forever.
  fs::create_directory_symlink("..", w.root / "projects/p/pypto_src/again");
  r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 2) << r.out;
}

TEST(BadInput, AnUnreadableFileIsAToolError) {
  MatrixWorkspace w;
  fs::path secret = w.write("projects/p/pypto_src/secret.py", "x = 1\n");
  fs::permissions(secret, fs::perms::none);
  std::string prefix;
  if (::geteuid() == 0) {
    // Permission bits do not stop root: run port-check as an unprivileged user instead.
    if (std::system("command -v setpriv >/dev/null 2>&1") != 0)
      GTEST_SKIP() << "running as root and setpriv (util-linux) is missing: cannot make a file unreadable";
    prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups";
    for (fs::path p = w.root; p != w.dir.path().parent_path(); p = p.parent_path())
      fs::permissions(p, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
    auto probe = w.run("--version", prefix);
    if (probe.exit_code != 0) GTEST_SKIP() << "cannot run port-check as uid 65534 here: " << probe.out;
  }
  auto r = w.run("lint projects/p", prefix);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "cannot check projects/p/pypto_src/secret.py: cannot open file: Permission denied "
                              "[TOOL002]"))
      << r.out;
}

TEST(BadInput, AProjectWithoutGoldenIsAFindingInCheckToo) {
  MatrixWorkspace w;
  w.write("projects/nogold/pypto_src/program.py", "import pypto.language as pl\n");
  auto r = w.run("check --pypto " + test::quoted((w.dir / "nowhere").string()) + " projects/nogold");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "project 'nogold' has no pypto_src/golden.py [PROJ001]")) << r.out;
}

TEST(BadInput, AMissingSiblingPyptoIsExplained) {
  MatrixWorkspace w;  // nothing at ../pypto
  auto r = w.run("compile projects/p");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "no PyPTO toolchain: looked in")) << r.out;
  EXPECT_TRUE(contains(r.out, "[COMP909]")) << r.out;
  r = w.run("check projects/p");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "compile stage skipped: no PyPTO toolchain")) << r.out;
  EXPECT_TRUE(contains(r.out, "[TOOL003]")) << r.out;
}

TEST(BadInput, ABrokenSiblingPyptoIsAToolError) {
  MatrixWorkspace w;
  w.write("projects/p/pypto_src/program.py", "import pypto.language as pl\n");
  // A folder that is no checkout.
  fs::create_directories(w.dir / "pypto" / "src");
  auto r = w.run("compile projects/p");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "it is not a PyPTO checkout with python/pypto/")) << r.out;
  // A checkout whose package cannot be imported (extension not built).
  fs::create_directories(w.dir / "pypto" / "python" / "pypto");
  std::ofstream(w.dir / "pypto" / "python" / "pypto" / "__init__.py")
      << "raise ImportError('pypto_core is not built')\n";
  if (std::system("command -v python3 >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3 on PATH";
  r = w.run("compile projects/p");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "PyPTO cannot be imported")) << r.out;
  EXPECT_TRUE(contains(r.out, "ImportError: pypto_core is not built [COMP909]")) << r.out;
  EXPECT_FALSE(contains(r.out, w.dir.path().string())) << "absolute path leaked:\n" << r.out;
}

TEST(BadInput, ConfigWithUnknownKeysWarnsAndWrongTypesFail) {
  MatrixWorkspace w;
  w.write("port-check.json", R"({"platfrom": "a5", "rules": {"NOPE123": "off"}, "hook": {"pathz": []}})");
  auto r = w.run("lint projects/p");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "port-check.json: warning: unknown configuration key 'platfrom' (ignored) [TOOL004]"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "unknown rule ID 'NOPE123'")) << r.out;
  for (const char* bad : {R"({"platform": 5})", R"({"rules": []})", R"({"exclude": "x"})",
                          R"({"per_path": [{"path": 1}]})", R"({"hook": {"compile": "yes"}})", "[1, 2]",
                          "{\"rules\": {\xff\xfe}}"}) {
    w.write("port-check.json", bad);
    r = w.run("lint projects/p");
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "port-check.json: error: ")) << bad << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "[TOOL004]")) << bad << "\n" << r.out;
  }
  // --config naming a folder or a missing file.
  fs::remove(w.root / "port-check.json");
  for (const char* path : {"projects", "missing.json"}) {
    r = w.run(std::string("lint --config ") + path + " projects/p");
    EXPECT_EQ(r.exit_code, 2) << path << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "[TOOL004]")) << path << "\n" << r.out;
  }
}

}  // namespace
}  // namespace portcheck

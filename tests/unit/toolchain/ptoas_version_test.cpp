// ptoas's version against PyPTO's pin, and the note a ptoas rejection gets when they differ.
#include <gtest/gtest.h>

#include <fstream>

#include "compiler/ptoas_version_note.h"
#include "test_support.h"
#include "toolchain/ptoas_version.h"

namespace portcheck::ptoas_version_test {
namespace {

namespace fs = std::filesystem;

TEST(PtoasVersion, VersionsDifferOnlyWhenBothAreKnown) {
  EXPECT_TRUE(ptoasVersionsDiffer("0.27", "v0.57"));
  EXPECT_FALSE(ptoasVersionsDiffer("0.57", "v0.57"));
  EXPECT_FALSE(ptoasVersionsDiffer("", "v0.57"));
  EXPECT_FALSE(ptoasVersionsDiffer("0.27", ""));
  EXPECT_EQ(ptoasMismatchNote("0.57", "v0.57"), "");
  EXPECT_NE(ptoasMismatchNote("0.27", "v0.57").find("this ptoas is 0.27; PyPTO pins v0.57"), std::string::npos);
}

// A PyPTO checkout pinning v0.57 and a ptoas that says `version` when asked; each start is logged.
struct PtoasCheckout {
  test::TempDir dir;
  Toolchain toolchain;
  explicit PtoasCheckout(const std::string& version) {
    dir.write("pypto/toolchain/versions.env", "PTOAS_VERSION=v0.57\n");
    fs::path ptoas = dir.write("bin-" + version + "/ptoas",
                               "#!/bin/sh\necho asked >> \"$(dirname \"$0\")/asked.log\"\necho ptoas " + version + "\n");
    fs::permissions(ptoas, fs::perms::owner_all);
    toolchain.found = true;
    toolchain.pypto_root = dir / "pypto";
    toolchain.ptoas = ptoas;
  }
  int asked() {
    std::ifstream in(toolchain.ptoas.parent_path() / "asked.log");
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }
};

Diagnostic finding(const std::string& rule, const std::string& message) {
  Diagnostic d;
  d.rule = rule;
  d.message = message;
  return d;
}

TEST(PtoasVersionNote, ARejectionByAnotherPtoasThanThePinnedOneSaysSo) {
  PtoasCheckout s("0.27");
  std::vector<Diagnostic> found = {
      finding("COMP007", "swiglu: ptoas: custom op 'pto.aic_initialize_pipe' expected 'nosplit'"),
      finding("GOLD015", "mixed: compiling it for the run failed: ptoas compilation failed: loc(...)"),
      finding("GOLD015", "softmax: the a2a3sim simulator failed to compile a kernel: TReduceIdx.hpp:27"),
      finding("COMP001", "softmax: Vec over capacity")};
  addPtoasVersionNotes(found, s.toolchain, {});
  ASSERT_EQ(found[0].notes.size(), 1u);
  EXPECT_NE(found[0].notes[0].message.find("this ptoas is 0.27; PyPTO pins v0.57"), std::string::npos);
  EXPECT_EQ(found[1].notes.size(), 1u);
  EXPECT_TRUE(found[2].notes.empty()) << "a C++ kernel compiler error is not ptoas's";
  EXPECT_TRUE(found[3].notes.empty());
}

TEST(PtoasVersionNote, ThePinnedPtoasOrNoRejectionAddsNothingAndAsksNothing) {
  PtoasCheckout pinned("0.57");
  std::vector<Diagnostic> found = {finding("COMP007", "swiglu: ptoas: expected 'nosplit'")};
  addPtoasVersionNotes(found, pinned.toolchain, {});
  EXPECT_TRUE(found[0].notes.empty());
  PtoasCheckout old("0.26");
  std::vector<Diagnostic> none = {finding("COMP001", "softmax: Vec over capacity")};
  addPtoasVersionNotes(none, old.toolchain, {});
  EXPECT_EQ(old.asked(), 0) << "ptoas was asked its version without a rejection to explain";
}

}  // namespace
}  // namespace portcheck::ptoas_version_test

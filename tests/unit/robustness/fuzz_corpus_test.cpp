// Every fuzz target's body over its seeds (the fixtures fuzz/seeds/<target>.txt lists and
// fuzz/corpus/<target>/) and its regression inputs (tests/fixtures/fuzz/<target>/, the inputs fuzzing
// found a bug with): in every build, not only in the
// clang fuzz build, each input must run through without a crash (and, under the sanitizer build,
// without a sanitizer report) in bounded time.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <sstream>

#include "test_support.h"

#define PORTCHECK_FUZZ_BODIES(X)                                                                         \
  X(dsl_model) X(kernel_model) X(compile_log) X(error_blocks) X(memory_error) X(verifier_report)         \
  X(codegen_tables) X(ptoas_output) X(perf_hints) X(pass_dump) X(legacy_memory_report) X(clang_output) \
  X(config) X(frontmatter) X(local_imports)

#define PORTCHECK_DECLARE_BODY(name) int portcheckFuzz_##name(const std::uint8_t* data, std::size_t size);
PORTCHECK_FUZZ_BODIES(PORTCHECK_DECLARE_BODY)

namespace portcheck {
namespace {

namespace fs = std::filesystem;

using Body = int (*)(const std::uint8_t*, std::size_t);

struct Target {
  const char* name;
  Body body;
};

#define PORTCHECK_TARGET_ENTRY(name) Target{#name, &portcheckFuzz_##name},
const Target kTargets[] = {PORTCHECK_FUZZ_BODIES(PORTCHECK_TARGET_ENTRY)};

// The repository paths a seed list names (one per line, '#' comments); a listed file that does not
// exist fails the test.
std::vector<fs::path> listedSeeds(const fs::path& list) {
  std::vector<fs::path> out;
  std::istringstream lines(test::readFile(list));
  for (std::string rel; std::getline(lines, rel);) {
    if (rel.empty() || rel[0] == '#') continue;
    fs::path p = fs::path(PORTCHECK_FUZZ_DIR).parent_path() / rel;
    EXPECT_TRUE(fs::is_regular_file(p)) << list << " names a missing file: " << rel;
    out.push_back(p);
  }
  return out;
}

std::vector<fs::path> inputsOf(const std::string& target, bool& has_seeds) {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::path list = fs::path(PORTCHECK_FUZZ_DIR) / "seeds" / (target + ".txt");
  if (fs::is_regular_file(list, ec)) out = listedSeeds(list);
  has_seeds = !out.empty();
  for (fs::path dir : {fs::path(PORTCHECK_FUZZ_DIR) / "corpus" / target, fs::path(test::fixturesDir()) / "fuzz" / target}) {
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) {
        out.push_back(e.path());
        has_seeds |= dir.parent_path().filename() == "corpus";
      }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FuzzCorpus, EveryTargetHasSeedsAndEveryInputRunsCleanly) {
  for (const Target& t : kTargets) {
    SCOPED_TRACE(t.name);
    bool has_seeds = false;
    std::vector<fs::path> inputs = inputsOf(t.name, has_seeds);
    EXPECT_TRUE(has_seeds) << "no seeds: fuzz/seeds/" << t.name << ".txt and fuzz/corpus/" << t.name << "/ are empty";
    for (const fs::path& p : inputs) {
      std::string bytes = test::readFile(p);
      auto start = std::chrono::steady_clock::now();
      EXPECT_EQ(t.body(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0) << p;
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      EXPECT_LT(s, 10.0) << p << " took " << s << " s (the fuzzers' -timeout)";
    }
  }
}

TEST(FuzzCorpus, EmptyAndTinyInputsRunCleanly) {
  for (const Target& t : kTargets) {
    SCOPED_TRACE(t.name);
    for (std::string s : {std::string(), std::string("\n"), std::string(1, '\0'), std::string("\xff"),
                          std::string("\r\n\r\n"), std::string(4096, '(')})
      EXPECT_EQ(t.body(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()), 0);
  }
}

}  // namespace
}  // namespace portcheck

#pragma once
// Builds CompileRecords from the recorded real-compiler fixtures in tests/fixtures/pypto-real/.
// Each case folder is treated as a project's source root: <case>/program.py maps to
// projects/<case>/pypto_src/program.py, <out>/ to build/compile/<case>/.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/compile_record.h"
#include "test_support.h"

namespace portcheck::test {

inline std::filesystem::path realFixturesDir() { return std::filesystem::path(fixturesDir()) / "pypto-real"; }

// Every NN-* case folder, sorted.
inline std::vector<std::string> realFixtureCases() {
  std::vector<std::string> cases;
  for (const auto& e : std::filesystem::directory_iterator(realFixturesDir()))
    if (e.is_directory() && std::isdigit(static_cast<unsigned char>(e.path().filename().string()[0])))
      cases.push_back(e.path().filename().string());
  std::sort(cases.begin(), cases.end());
  return cases;
}

inline std::string sourceDisplay(const std::string& c) { return "projects/" + c + "/pypto_src"; }
inline std::string outDisplay(const std::string& c) { return "build/compile/" + c; }

inline CompileRecord fixtureRecord(const std::string& c) {
  std::filesystem::path dir = realFixturesDir() / c;
  CompileRecord r;
  r.project = c;
  r.source_root = dir;
  r.source_root_display = sourceDisplay(c);
  r.log = readFile(dir / "stdout-stderr.txt");
  r.exit_code = std::stoi(readFile(dir / "exit-code.txt"));
  r.out_dir = dir / "out";
  r.out_dir_display = outDisplay(c);
  r.path_map = {{"<case>/", sourceDisplay(c) + "/"}, {"<out>/", outDisplay(c) + "/"}};
  return r;
}

inline nlohmann::json fixtureExpected(const std::string& c) {
  return nlohmann::json::parse(readFile(realFixturesDir() / c / "expected.json"));
}

// expected.json file (relative to file_root "<case>" or "<out>") -> the display path port-check uses.
inline std::string expectedDisplay(const std::string& c, const std::string& file, const std::string& root = "<case>") {
  return (root == "<out>" ? outDisplay(c) : sourceDisplay(c)) + "/" + file;
}

inline double round2(double v) { return std::round(v * 100.0) / 100.0; }

}  // namespace portcheck::test

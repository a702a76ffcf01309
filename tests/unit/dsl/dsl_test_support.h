#pragma once
// Helpers for the DSL model tests: build models from inline sources or fixture programs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/source_file.h"
#include "dsl/dsl_model.h"
#include "lint/python_unit_support.h"
#include "test_support.h"

namespace portcheck::test {

// Model of inline (path, text) files, built as one unit.
inline dsl::ProgramModel modelOf(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<SourceFile> sources;
  for (auto& [p, t] : files) sources.push_back(sourceOf(p, t));
  return dsl::buildProgramModel(sources);
}

inline dsl::FileModel fileModelOf(const std::string& text) { return dsl::buildFileModel(sourceOf("t.py", text)); }

// Model of the real fixture program tests/fixtures/pypto-real/<name>/program.py.
inline dsl::FileModel fixtureModel(const std::string& name) {
  std::filesystem::path p = std::filesystem::path(fixturesDir()) / "pypto-real" / name / "program.py";
  ReadResult r = readSourceFile(p, name + "/program.py");
  EXPECT_TRUE(r.file) << p;
  return r.file ? dsl::buildFileModel(*r.file) : dsl::FileModel{};
}

inline const dsl::Function& fn(const dsl::FileModel& m, std::string_view name) {
  for (const dsl::Function& f : m.functions)
    if (f.name == name) return f;
  ADD_FAILURE() << "no function " << name;
  static const dsl::Function none;
  return none;
}

// The last value bound to `name` in `f`.
inline const dsl::Value& val(const dsl::Function& f, std::string_view name) {
  for (auto it = f.values.rbegin(); it != f.values.rend(); ++it)
    if (it->name == name) return *it;
  ADD_FAILURE() << "no value " << name << " in " << f.name;
  static const dsl::Value none;
  return none;
}

inline int valueIndex(const dsl::Function& f, std::string_view name) {
  for (int i = static_cast<int>(f.values.size()) - 1; i >= 0; --i)
    if (f.values[static_cast<std::size_t>(i)].name == name) return i;
  return -1;
}

// pl-relative names of the pl.* calls of a function, in evaluation order.
inline std::vector<std::string> plCalls(const dsl::Function& f) {
  std::vector<std::string> out;
  for (int c : f.calls)
    if (!f.exprs[static_cast<std::size_t>(c)].pl_name.empty()) out.push_back(f.exprs[static_cast<std::size_t>(c)].pl_name);
  return out;
}

inline std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace portcheck::test

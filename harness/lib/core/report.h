#pragma once
// Everything one port-check run found: diagnostics, the SRAM table and what ran. Stages append,
// emitters read.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace portcheck {

// One tile that takes part in a function's SRAM use.
struct SramTile {
  std::string name;
  std::int64_t bytes = 0;
  std::string file;
  int line = 0;
};

// One (function, memory space) row of the SRAM table.
struct SramRow {
  std::string project;     // project or program the function belongs to
  std::string function;    // kernel name as the compiler names it
  std::string core;        // AIV, AIC, InCore or empty
  std::string space;       // Vec, Mat, Left, Right, Acc, ...
  std::optional<std::int64_t> estimate;  // port-check's estimate from source
  std::optional<std::int64_t> actual;    // the compiler's high-water mark (AllocateMemoryAddr)
  std::int64_t capacity = 0;
  int tiles = 0;
  std::vector<SramTile> largest;  // largest tiles first
};

enum class StageState { Ran, Skipped, Failed };

// What a stage did, e.g. {"compile", Skipped, "no PyPTO checkout found (looked in ../pypto)"}.
struct StageStatus {
  std::string name;
  StageState state = StageState::Ran;
  std::string detail;
};

struct RunInfo {
  std::string tool_version;
  std::string catalogue_version;
  std::string platform;
  std::string toolchain;  // e.g. "pypto e2d0f78a at ../pypto" or "not found"
  std::vector<StageStatus> stages;
  std::vector<std::string> files;  // every file checked, workspace-relative
  double seconds = 0;
};

struct Report {
  RunInfo run;
  std::vector<Diagnostic> diagnostics;
  std::vector<SramRow> sram;

  void add(Diagnostic d) { diagnostics.push_back(std::move(d)); }
  void append(std::vector<Diagnostic> ds);
  // Sorts diagnostics and files deterministically and drops exact duplicates.
  void finalize();
  int count(Severity s) const;
};

std::string_view toString(StageState s);

}  // namespace portcheck

#pragma once
// Checks on the SRAM estimate of a unit (MEM001-MEM099). One class per rule, registered in memChecks().
// A check reads the estimates of the unit's kernels (sram/sram_estimator.h) and appends diagnostics
// built with makeDiagnostic(); it keeps no state between calls (units are linted in parallel).
#include <memory>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "dsl/dsl_model.h"
#include "lint/linters.h"
#include "sram/sram_estimator.h"

namespace portcheck {

struct SramCheckContext {
  const dsl::ProgramModel& program;
  const std::vector<sram::KernelEstimate>& kernels;
  const LintSettings& settings;
  std::string_view project;
};

class MemCheck {
 public:
  virtual ~MemCheck() = default;
  virtual std::string_view id() const = 0;
  virtual void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const = 0;
};

// Every MEM estimate check, in ID order.
const std::vector<std::unique_ptr<MemCheck>>& memChecks();

// Shared by the MEM checks: "x (N bytes)" notes for the largest tiles of a space and the pipe ring.
std::vector<DiagnosticNote> largestTileNotes(const sram::KernelEstimate& k, const sram::SpaceEstimate& s,
                                             std::size_t max_tiles = 3);

// An integer percentage option of the config ("mem.near_capacity_percent"), or `fallback`.
double percentOption(const LintSettings& settings, const std::string& key, double fallback);

}  // namespace portcheck

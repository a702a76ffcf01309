#pragma once
// What `port-check ledger` shows (docs/ledger.md): one row per attempt with its change, result, golden
// and SRAM cells and the loop findings it raised, rendered as a text table, Markdown (for PORTING.md)
// or JSON (docs/schema/port-check-ledger.schema.json).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/diagnostic.h"
#include "ledger/attempt.h"
#include "ledger/ledger_file.h"
#include "ledger/loop_check.h"

namespace portcheck::ledger {

inline constexpr int kLedgerJsonSchemaVersion = 1;

struct AttemptRow {
  const Attempt* attempt = nullptr;
  std::string change, result, golden, sram;
  std::vector<Diagnostic> loop;  // the loop findings this attempt raised
};

struct LedgerView {
  std::string project;              // workspace-relative
  std::string ledger;               // the ledger file, workspace-relative
  const FoldedSummary* folded = nullptr;
  int attempts_before_rows = 0;     // retained attempts left out by --last
  std::vector<AttemptRow> rows;     // oldest first
  std::vector<Diagnostic> diagnostics;  // the newest attempt's loop findings, and skipped ledger lines
};

// Rows for the newest `last` attempts (all when nullopt); loop findings are recomputed for each row
// from the attempts before it.
LedgerView buildLedgerView(const LedgerHistory& history, const std::string& project, const LoopSettings& settings,
                           std::optional<int> last);

std::string ledgerText(const LedgerView& view);
std::string ledgerMarkdown(const LedgerView& view);
nlohmann::json ledgerJson(const LedgerView& view, const std::string& doc_base_url);

// The cells, exposed for tests.
std::string resultCell(const Attempt& a);
std::string goldenCell(const Attempt& a);
std::string sramCell(const Attempt& a, const Attempt* previous);

}  // namespace portcheck::ledger

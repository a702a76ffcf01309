#pragma once
// The ledger's records as JSON (docs/ledger.md; schema docs/schema/port-check-ledger.schema.json):
// {"kind": "attempt", ...}, {"kind": "repeat", ...} (an identical re-run of the attempt it names, in the
// attempt's form) and {"kind": "summary", ...}, one per line of ledger.jsonl.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ledger/attempt.h"

namespace portcheck::ledger {

nlohmann::json attemptToJson(const Attempt& a);
// The record of `rerun`, an identical re-run of attempt `rerun.number`.
nlohmann::json repeatToJson(const Attempt& rerun);
nlohmann::json summaryToJson(const FoldedSummary& s);

// A record read back; `error` says why a line is not one (not JSON, another schema, a field missing
// or of the wrong type).
struct ParsedRecord {
  std::optional<Attempt> attempt;
  bool repeat = false;  // `attempt` is a re-run of the attempt of its number
  std::optional<FoldedSummary> summary;
  std::string error;
};
ParsedRecord parseRecord(const std::string& line);

// One line of ledger.jsonl: the record as compact JSON (invalid UTF-8 replaced) and a newline.
std::string recordLine(const nlohmann::json& record);

}  // namespace portcheck::ledger

#pragma once
// JSON forms of the report model, shared by the JSON and SARIF emitters and the cache.
#include <nlohmann/json.hpp>

#include "core/report.h"
#include "output/emitter.h"

namespace portcheck {

nlohmann::json diagnosticToJson(const Diagnostic& d, const EmitOptions& options);
nlohmann::json sramRowToJson(const SramRow& row);
nlohmann::json goldenRunToJson(const GoldenRun& run);
nlohmann::json reportToJson(const Report& report, const EmitOptions& options);

}  // namespace portcheck

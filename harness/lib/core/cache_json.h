#pragma once
// The JSON form the caches store findings and SRAM rows in (compile cache, lint cache): every field,
// so a replay is the finding as first reported. The readers throw on a malformed entry; callers treat
// that as a cache miss.
#include <nlohmann/json.hpp>

#include "core/diagnostic.h"
#include "core/report.h"

namespace portcheck {

nlohmann::json diagnosticJson(const Diagnostic& d);
Diagnostic diagnosticFromJson(const nlohmann::json& j);
nlohmann::json sramJson(const SramRow& r);
SramRow sramFromJson(const nlohmann::json& j);

}  // namespace portcheck

#pragma once
#include <string>
#include <vector>

#include "core/report.h"

namespace portcheck {

// Fixed-width table: function, core, space, estimate, actual, capacity, use %, tiles.
std::string renderSramTable(const std::vector<SramRow>& rows);

// Share of capacity in percent of the actual figure, else of the estimate; nullopt when neither.
std::optional<double> utilisationPercent(const SramRow& row);

}  // namespace portcheck

#pragma once
// Fixed-width columns for the text output's tables: each cell after two spaces, the columns from
// `first_numeric` on right-aligned, trailing blanks trimmed; the header line first, one line per row.
#include <cstddef>
#include <string>
#include <vector>

namespace portcheck {

std::string renderColumns(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                          std::size_t first_numeric);

}  // namespace portcheck

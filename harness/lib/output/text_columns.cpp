#include "output/text_columns.h"

#include <algorithm>

namespace portcheck {

std::string renderColumns(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                          std::size_t first_numeric) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  auto line = [&](const std::vector<std::string>& row) {
    std::string s;
    for (std::size_t c = 0; c < row.size(); ++c) {
      std::string pad(width[c] - row[c].size(), ' ');
      s += "  " + (c >= first_numeric ? pad + row[c] : row[c] + pad);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out += s + "\n";
  };
  line(header);
  for (const auto& row : rows) line(row);
  return out;
}

}  // namespace portcheck

#include "output/schedule_table.h"

#include <algorithm>

namespace portcheck {

std::string renderScheduleTable(const std::vector<ScheduleRow>& rows) {
  const std::vector<std::string> header = {"unit", "kernels", "tasks", "GM bytes", "critical GM bytes"};
  auto figure = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("?"); };
  std::vector<std::vector<std::string>> cells;
  for (const ScheduleRow& r : rows)
    cells.push_back({r.project, std::to_string(r.kernels), figure(r.tasks), figure(r.gm_bytes),
                     figure(r.critical_gm_bytes)});
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  std::string out = "Schedule (one run, counted from the source)\n";
  auto line = [&](const std::vector<std::string>& row) {
    std::string s;
    for (std::size_t c = 0; c < row.size(); ++c) {
      std::string pad(width[c] - row[c].size(), ' ');
      s += "  " + (c > 0 ? pad + row[c] : row[c] + pad);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out += s + "\n";
  };
  line(header);
  for (const auto& row : cells) line(row);
  for (const ScheduleRow& r : rows)
    for (const std::string& why : r.unknown) out += "  ? " + r.project + ": " + why + "\n";
  return out;
}

}  // namespace portcheck

#include "output/schedule_table.h"

#include "output/text_columns.h"

namespace portcheck {

std::string renderScheduleTable(const std::vector<ScheduleRow>& rows) {
  const std::vector<std::string> header = {"unit", "kernels", "tasks", "GM bytes", "critical GM bytes"};
  auto figure = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("?"); };
  std::vector<std::vector<std::string>> cells;
  for (const ScheduleRow& r : rows)
    cells.push_back({r.project, std::to_string(r.kernels), figure(r.tasks), figure(r.gm_bytes),
                     figure(r.critical_gm_bytes)});
  std::string out = "Schedule (one run, counted from the source)\n" + renderColumns(header, cells, 1);
  for (const ScheduleRow& r : rows)
    for (const std::string& why : r.unknown) out += "  ? " + r.project + ": " + why + "\n";
  return out;
}

}  // namespace portcheck

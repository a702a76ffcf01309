#include "output/schedule_table.h"

#include "output/figures.h"
#include "output/text_columns.h"

namespace portcheck {

std::string renderScheduleTable(const std::vector<ScheduleRow>& rows) {
  const std::vector<std::string> header = {"unit",     "kernels",  "tasks", "GM bytes", "critical GM bytes",
                                           "est. us", "AIC busy", "AIV busy", "bound"};
  auto figure = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("?"); };
  std::vector<std::vector<std::string>> cells;
  for (const ScheduleRow& r : rows)
    cells.push_back({r.project, std::to_string(r.kernels), figure(r.tasks), figure(r.gm_bytes),
                     figure(r.critical_gm_bytes), r.device_us ? microseconds(*r.device_us) : "?",
                     r.device_us ? wholePercent(r.aic_utilisation) : "?", r.device_us ? wholePercent(r.aiv_utilisation) : "?",
                     r.device_us ? r.bound : "?"});
  std::string out = "Schedule (one run, counted from the source; device time from the model, docs/perf-model.md)\n" +
                    renderColumns(header, cells, 1);
  for (const ScheduleRow& r : rows)
    for (const std::string& why : r.unknown) out += "  ? " + r.project + ": " + why + "\n";
  for (const ScheduleRow& r : rows) {
    if (!r.device_us || r.kernel_times.empty()) continue;
    out += "\nDevice time of " + r.project + " (" + microseconds(*r.device_us) + " us; " + std::to_string(r.aic) + " AIC, " +
           std::to_string(r.aiv) + " AIV cores)\n";
    std::vector<std::vector<std::string>> k;
    for (const KernelTime& t : r.kernel_times)
      k.push_back({t.kernel, t.core, t.bound, std::to_string(t.tasks), microseconds(t.task_us), microseconds(t.busy_us),
                   microseconds(t.critical_us)});
    out += renderColumns({"kernel", "core", "bound", "tasks", "us / task", "core-us", "on critical path"}, k, 3);
    std::string path;
    for (const CriticalStepRow& c : r.critical_path)
      path += (path.empty() ? "" : " -> ") + c.kernel + " x" + std::to_string(c.tasks) + " (" + microseconds(c.us) + " us)";
    if (!path.empty()) out += "  critical path: " + path + "\n";
  }
  return out;
}

}  // namespace portcheck

#include "report/schedule_html.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "output/figures.h"
#include "report/html_report.h"

namespace portcheck {

namespace {

std::string figure(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "?"; }

// Colours told apart in print too (the Okabe-Ito palette, then darker shades).
const char* kPalette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
                          "#4b6a88", "#a05a2c", "#3d7a4f", "#7a3d6e"};

// Lane order: AIC lanes, then clusters, then AIV lanes, each by number.
int laneRank(const std::string& lane) {
  const std::size_t space = lane.rfind(' ');
  const int n = space == std::string::npos ? 0 : std::atoi(lane.c_str() + space + 1);
  const int kind = lane.rfind("AIC", 0) == 0 ? 0 : lane.rfind("cluster", 0) == 0 ? 1 : 2;
  return kind * 100000 + n;
}

}  // namespace

std::string scheduleSummaryHtml(const std::vector<ScheduleRow>& rows) {
  std::ostringstream s;
  s << "<div id=\"summary\" class=\"summary\">";
  for (const ScheduleRow& r : rows) {
    s << "<div class=\"card summary-card\"><h3>" << xmlEscape(r.project) << "</h3>";
    if (r.device_us) {
      s << "<div class=\"big\">" << microseconds(*r.device_us) << " µs</div><div class=\"meta\">estimated device time of one run · "
        << figure(r.tasks) << " tasks · bound by " << xmlEscape(r.bound) << " · AIC " << wholePercent(r.aic_utilisation)
        << " busy · AIV " << wholePercent(r.aiv_utilisation) << " busy</div>";
    } else {
      s << "<div class=\"big\">?</div><div class=\"meta\">device time not static: "
        << xmlEscape(r.unknown.empty() ? std::string("no schedule") : r.unknown.front()) << "</div>";
    }
    s << "</div>";
  }
  s << "</div>";
  return s.str();
}

std::string scheduleTableHtml(const std::vector<ScheduleRow>& rows) {
  std::ostringstream s;
  s << "<table id=\"schedule-table\"><thead><tr><th class=\"l\">unit</th><th>kernels</th><th>tasks</th><th>GM bytes</th>"
    << "<th>critical GM bytes</th><th>est. µs</th><th>AIC busy</th><th>AIV busy</th><th class=\"l\">bound</th></tr></thead><tbody>";
  for (const ScheduleRow& r : rows)
    s << "<tr><td class=\"l\">" << xmlEscape(r.project) << "</td><td>" << r.kernels << "</td><td>" << figure(r.tasks)
      << "</td><td>" << figure(r.gm_bytes) << "</td><td>" << figure(r.critical_gm_bytes) << "</td><td>"
      << (r.device_us ? microseconds(*r.device_us) : "?") << "</td><td>" << (r.device_us ? wholePercent(r.aic_utilisation) : "?")
      << "</td><td>" << (r.device_us ? wholePercent(r.aiv_utilisation) : "?") << "</td><td class=\"l\">" << xmlEscape(r.bound)
      << "</td></tr>";
  s << "</tbody></table>";
  for (const ScheduleRow& r : rows) {
    if (r.kernel_times.empty()) continue;
    s << "<h3>" << xmlEscape(r.project) << ": kernels</h3><table class=\"kernel-times\"><thead><tr><th class=\"l\">kernel</th>"
      << "<th class=\"l\">core</th><th class=\"l\">bound</th><th>tasks</th><th>µs / task</th><th>MTE2</th><th>CUBE</th>"
      << "<th>VECTOR</th><th>MTE3</th><th>core-µs</th><th>on critical path</th></tr></thead><tbody>";
    for (const KernelTime& k : r.kernel_times)
      s << "<tr><td class=\"l\"><code>" << xmlEscape(k.kernel) << "</code></td><td class=\"l\">" << k.core
        << "</td><td class=\"l\">" << k.bound << "</td><td>" << k.tasks << "</td><td>" << microseconds(k.task_us) << "</td><td>"
        << microseconds(k.mte2_us) << "</td><td>" << microseconds(k.cube_us) << "</td><td>" << microseconds(k.vector_us) << "</td><td>"
        << microseconds(k.mte3_us) << "</td><td>" << microseconds(k.busy_us) << "</td><td>" << microseconds(k.critical_us) << "</td></tr>";
    s << "</tbody></table>";
    if (!r.critical_path.empty()) {
      s << "<p class=\"legend critical-path\">Critical path: ";
      for (std::size_t i = 0; i < r.critical_path.size(); ++i) {
        const CriticalStepRow& c = r.critical_path[i];
        s << (i ? " → " : "") << "<code>" << xmlEscape(c.kernel) << "</code> ×" << c.tasks << " (" << microseconds(c.us) << " µs"
          << (c.waits.empty() || c.waits == "submit" ? "" : ", after " + xmlEscape(c.waits)) << ")";
      }
      s << "</p>";
    }
  }
  return s.str();
}

std::string timelineSvg(const ScheduleRow& row, int index) {
  if (!row.device_us || row.timeline.empty() || *row.device_us <= 0) return "";
  std::vector<std::string> lanes;
  std::map<std::string, int> colour;
  for (const TimelineBar& b : row.timeline) {
    if (std::find(lanes.begin(), lanes.end(), b.lane) == lanes.end()) lanes.push_back(b.lane);
    colour.emplace(b.kernel, static_cast<int>(colour.size()));
  }
  std::sort(lanes.begin(), lanes.end(), [](const std::string& a, const std::string& b) { return laneRank(a) < laneRank(b); });
  std::map<std::string, int> lane_row;
  for (std::size_t i = 0; i < lanes.size(); ++i) lane_row[lanes[i]] = static_cast<int>(i);
  const int label_w = 80, plot_w = 900, lane_h = 12, top = 22;
  const int legend_h = 16 * static_cast<int>((colour.size() + 3) / 4) + 8;
  const int h = top + lane_h * static_cast<int>(lanes.size()) + 8 + legend_h;
  const double total = *row.device_us;
  auto x = [&](double us) { return label_w + us / total * plot_w; };
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" id=\"timeline-" << index << "\" width=\""
    << label_w + plot_w + 10 << "\" height=\"" << h << "\" role=\"img\" aria-label=\"timeline of " << xmlEscape(row.project) << "\">";
  // Time axis: five ticks.
  for (int t = 0; t <= 4; ++t) {
    const double us = total * t / 4.0;
    s << "<line x1=\"" << x(us) << "\" y1=\"" << top - 4 << "\" x2=\"" << x(us) << "\" y2=\""
      << top + lane_h * static_cast<int>(lanes.size()) << "\" stroke=\"#d8dde6\"/><text x=\"" << x(us) << "\" y=\"12\" font-size=\"10\" text-anchor=\""
      << (t == 4 ? "end" : t == 0 ? "start" : "middle") << "\" fill=\"#5b6577\">" << microseconds(us) << " µs</text>";
  }
  for (std::size_t i = 0; i < lanes.size(); ++i)
    s << "<text class=\"lane\" x=\"0\" y=\"" << top + lane_h * static_cast<int>(i) + 10 << "\" font-size=\"9\" font-family=\"monospace\" fill=\""
      << (lanes[i].rfind("AIV", 0) == 0 ? "#5b6577" : "#1d2330") << "\">" << xmlEscape(lanes[i]) << "</text>";
  for (const TimelineBar& b : row.timeline) {
    const double x1 = x(b.start_us), w = std::max(0.8, x(b.end_us) - x1);
    s << "<rect class=\"task" << (b.critical ? " critical" : "") << "\" x=\"" << x1 << "\" y=\"" << top + lane_h * lane_row[b.lane] + 1
      << "\" width=\"" << w << "\" height=\"" << lane_h - 2 << "\" fill=\"" << kPalette[colour[b.kernel] % 12] << "\""
      << (b.critical ? " stroke=\"#b3261e\" stroke-width=\"1.5\"" : "") << "><title>"
      << xmlEscape(b.kernel + " on " + b.lane + ": " + microseconds(b.start_us) + " – " + microseconds(b.end_us) + " µs" +
                   (b.critical ? " (critical path)" : ""))
      << "</title></rect>";
  }
  int i = 0;
  const int ly = top + lane_h * static_cast<int>(lanes.size()) + 12;
  for (const auto& [kernel, c] : colour) {
    const int lx = label_w + (i % 4) * 225, y = ly + (i / 4) * 16;
    s << "<rect x=\"" << lx << "\" y=\"" << y << "\" width=\"10\" height=\"10\" fill=\"" << kPalette[c % 12]
      << "\"/><text x=\"" << lx + 14 << "\" y=\"" << y + 9 << "\" font-size=\"10\" font-family=\"monospace\" fill=\"#1d2330\">"
      << xmlEscape(kernel.size() > 30 ? kernel.substr(0, 29) + "…" : kernel) << "</text>";
    ++i;
  }
  s << "</svg>";
  return s.str();
}

}  // namespace portcheck

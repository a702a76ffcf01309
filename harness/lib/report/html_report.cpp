#include "report/html_report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "output/sram_table.h"
#include "report/schedule_html.h"
#include "report/task_graph_layout.h"

namespace portcheck {

std::string xmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        // Control characters other than tab / newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') out += ' ';
        else out += c;
    }
  }
  return out;
}

namespace {

std::string num(std::int64_t v) {
  std::string s = std::to_string(v), out;
  int n = 0;
  for (auto it = s.rbegin(); it != s.rend(); ++it) {
    if (n && n % 3 == 0 && *it != '-') out += ',';
    out += *it;
    ++n;
  }
  return std::string(out.rbegin(), out.rend());
}

std::string pct(std::int64_t used, std::int64_t cap) {
  if (cap <= 0) return "";
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100.0 * static_cast<double>(used) / static_cast<double>(cap));
  return b;
}

const char* kCss = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;background:#fafbfc}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d8dde6;padding-bottom:4px}
.meta{color:#5b6577;font-size:13px}
table{border-collapse:collapse;font-size:13px;background:#fff}
th,td{border:1px solid #d8dde6;padding:4px 8px;text-align:right}th{background:#eef1f6}
td.l,th.l{text-align:left}
.over{color:#b3261e;font-weight:600}.near{color:#9a6700}
.card{display:inline-block;vertical-align:top;margin:0 16px 16px 0;padding:10px 12px;background:#fff;border:1px solid #d8dde6;border-radius:6px}
.card h3{font-size:14px;margin:0 0 6px;font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.graph-card{display:block;max-width:1128px;box-sizing:border-box}
.graph-panel{overflow:auto;max-height:760px;max-width:100%}
.table-panel{overflow:auto;max-height:520px;display:inline-block;max-width:100%}
#sram-bars{max-height:900px;overflow:auto}
td.l{overflow-wrap:anywhere}a{color:inherit}
ul.advice{font-size:13px;padding-left:18px}ul.advice li{margin:6px 0}
.sev-error{color:#b3261e}.sev-warning{color:#9a6700}.sev-info{color:#0b5cad}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
.legend{font-size:12px;color:#5b6577}
ul.advice .hint{color:#5b6577;margin:2px 0 0}ul.advice ul.notes{margin:2px 0;padding-left:16px;color:#5b6577}
.summary-card .big{font-size:26px;font-weight:600;margin:2px 0}
table.kernel-times{margin-bottom:6px}.timeline-card{display:block;max-width:1010px}
@media print{body{margin:8mm;background:#fff}.graph-panel,.table-panel,#sram-bars{overflow:visible;max-height:none}
.table-panel{display:block}table{page-break-inside:auto}tr,.card,svg{page-break-inside:avoid}thead{display:table-header-group}
.timeline,.taskgraph{max-width:100%;height:auto}h2{page-break-after:avoid}}
)";

// One kernel's bars: one row per space, the estimate as a filled bar, the actual as a dark marker.
std::string kernelBars(const std::string& function, const std::string& id, const std::vector<const SramRow*>& rows) {
  const int label_w = 56, bar_w = 240, row_h = 26, text_w = 190;
  int h = static_cast<int>(rows.size()) * row_h + 10;
  int w = label_w + bar_w + text_w;
  std::ostringstream s;
  s << "<div class=\"card\" id=\"" << id << "\"><h3>" << xmlEscape(function) << "</h3>";
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h << "\" role=\"img\" aria-label=\"SRAM of "
    << xmlEscape(function) << "\">";
  int y = 5;
  for (const SramRow* r : rows) {
    std::int64_t cap = r->capacity;
    std::int64_t est = r->estimate.value_or(0), act = r->actual.value_or(0);
    std::int64_t top = std::max({cap, est, act, std::int64_t{1}});
    auto x = [&](std::int64_t v) { return label_w + static_cast<int>(static_cast<double>(bar_w) * static_cast<double>(v) / static_cast<double>(top)); };
    bool over = (r->estimate && cap > 0 && est > cap) || (r->actual && cap > 0 && act > cap);
    s << "<g class=\"bar\" data-space=\"" << xmlEscape(r->space) << "\">";
    s << "<text x=\"0\" y=\"" << y + 16 << "\" font-size=\"12\" fill=\"#1d2330\">" << xmlEscape(r->space) << "</text>";
    s << "<rect x=\"" << label_w << "\" y=\"" << y + 4 << "\" width=\"" << x(cap) - label_w << "\" height=\"16\" fill=\"#eef1f6\" stroke=\"#c3cad6\"/>";
    if (r->estimate)
      s << "<rect class=\"estimate\" x=\"" << label_w << "\" y=\"" << y + 6 << "\" width=\"" << std::max(1, x(est) - label_w)
        << "\" height=\"12\" fill=\"" << (over ? "#e0766f" : "#6fa8dc") << "\"><title>estimate " << num(est) << " bytes</title></rect>";
    if (r->actual)
      s << "<rect class=\"actual\" x=\"" << std::max(label_w, x(act) - 2) << "\" y=\"" << y + 1 << "\" width=\"3\" height=\"22\" fill=\"#1d2330\"><title>actual "
        << num(act) << " bytes" << (r->actual_source == "cache" ? " (from the compile cache)" : "") << "</title></rect>";
    if (cap > 0)
      s << "<line x1=\"" << x(cap) << "\" y1=\"" << y << "\" x2=\"" << x(cap) << "\" y2=\"" << y + 24
        << "\" stroke=\"#b3261e\" stroke-dasharray=\"3,2\"/>";
    std::string label = r->estimate ? num(est) : "–";
    if (r->actual) label += " / " + num(act);
    label += cap > 0 ? " of " + num(cap) + " (" + pct(r->actual ? act : est, cap) + ")" : "";
    s << "<text x=\"" << label_w + bar_w + 8 << "\" y=\"" << y + 16 << "\" font-size=\"11\" fill=\"" << (over ? "#b3261e" : "#5b6577")
      << "\">" << xmlEscape(label) << "</text></g>";
    y += row_h;
  }
  s << "</svg></div>";
  return s.str();
}

// An element id made of the name's letters, digits, '_' and '-' (anything else becomes '-').
std::string anchorId(std::string_view prefix, std::string_view name) {
  std::string id(prefix);
  for (char c : name) id += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '-';
  return id;
}

// The SRAM card of a task's kernel: its own name, else a split kernel's cube or vector half.
std::string kernelAnchor(const std::map<std::string, std::string>& cards, const std::string& kernel) {
  for (const std::string& name : {kernel, kernel + "_aic", kernel + "_aiv"})
    if (auto it = cards.find(name); it != cards.end()) return it->second;
  return "";
}

// The graph laid out in layers that fit the page (report/task_graph_layout); each box names its
// kernel, its line and the tensors it reads from earlier tasks, and links to the kernel's SRAM card.
std::string taskGraphSvg(const advice::TaskGraph& g, int index, const std::map<std::string, std::string>& cards) {
  TaskGraphLayout layout = layoutTaskGraph(g);
  const int n = static_cast<int>(g.tasks.size());
  std::vector<std::vector<const advice::Edge*>> inputs(static_cast<std::size_t>(n));
  for (const advice::Edge& e : g.edges)
    if (e.to >= 0 && e.to < n && e.from >= 0 && e.from < n) inputs[static_cast<std::size_t>(e.to)].push_back(&e);
  auto box = [&](int i) -> const TaskBox& { return layout.boxes[static_cast<std::size_t>(i)]; };
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"taskgraph\" width=\"" << layout.width << "\" height=\""
    << layout.height << "\" role=\"img\" aria-label=\"task graph of " << xmlEscape(g.caller) << "\">";
  s << "<defs><marker id=\"arrow-" << index << "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
    << "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#5b6577\"/></marker></defs>";
  // Edges first, so the boxes (opaque) are drawn over any edge that passes behind them.
  for (const advice::Edge& e : g.edges) {
    if (e.from < 0 || e.to < 0 || e.from >= n || e.to >= n) continue;
    const TaskBox& a = box(e.from);
    const TaskBox& b = box(e.to);
    int x1 = a.x + layout.box_w / 2, y1 = a.y + layout.box_h, x2 = b.x + layout.box_w / 2, y2 = b.y;
    int bend = std::max(16, (y2 - y1) / 2);
    if (y2 <= y1) {  // not below its producer (a loop-carried edge): leave and enter from the side
      x1 = a.x + layout.box_w;
      y1 = a.y + layout.box_h / 2;
      x2 = b.x + layout.box_w;
      y2 = b.y + layout.box_h / 2;
    }
    s << "<g class=\"edge\" data-from=\"" << e.from << "\" data-to=\"" << e.to << "\"><path d=\"M" << x1 << "," << y1 << " C"
      << x1 << "," << y1 + bend << " " << x2 << "," << y2 - bend << " " << x2 << "," << y2 - 2
      << "\" fill=\"none\" stroke=\"#8a94a6\" stroke-width=\"1.2\" marker-end=\"url(#arrow-" << index << ")\"><title>"
      << xmlEscape(g.tasks[static_cast<std::size_t>(e.from)].kernel + " -> " + g.tasks[static_cast<std::size_t>(e.to)].kernel +
                   ": " + e.tensor + " (" + num(e.bytes) + " B)")
      << "</title></path></g>";
  }
  const int cx = layout.box_w / 2;
  for (int i = 0; i < n; ++i) {
    const advice::Task& t = g.tasks[static_cast<std::size_t>(i)];
    const TaskBox& b = box(i);
    std::string anchor = kernelAnchor(cards, t.kernel);
    s << "<g class=\"task\" id=\"" << anchorId("task-" + std::to_string(index) + "-", t.kernel) << "-" << i
      << "\" data-kernel=\"" << xmlEscape(t.kernel) << "\" data-layer=\"" << b.layer << "\">";
    if (!anchor.empty()) s << "<a href=\"#" << anchor << "\">";
    s << "<rect x=\"" << b.x << "\" y=\"" << b.y << "\" width=\"" << layout.box_w << "\" height=\"" << layout.box_h
      << "\" rx=\"6\" fill=\"#ffffff\" stroke=\"#0b5cad\" stroke-width=\"1.5\"/>";
    int y = b.y + 20;
    s << "<text x=\"" << b.x + cx << "\" y=\"" << y << "\" font-size=\"12\" text-anchor=\"middle\" font-family=\"monospace\" fill=\"#1d2330\">"
      << xmlEscape(fitText(t.kernel, layout.name_chars)) << "</text>";
    y += 14;
    s << "<text x=\"" << b.x + cx << "\" y=\"" << y << "\" font-size=\"10\" text-anchor=\"middle\" font-family=\"monospace\" fill=\"#5b6577\">"
      << xmlEscape(fitText(std::filesystem::path(t.file).filename().string() + ":" + std::to_string(t.line), layout.detail_chars))
      << "</text>";
    const auto& in = inputs[static_cast<std::size_t>(i)];
    std::string all;
    for (std::size_t k = 0; k < in.size(); ++k) {
      std::string line = "← " + in[k]->tensor + " · " + num(in[k]->bytes) + " B";
      all += "\n" + line;
      if (static_cast<int>(k) >= layout.inputs_shown) continue;
      y += 13;
      s << "<text x=\"" << b.x + 8 << "\" y=\"" << y << "\" font-size=\"10\" font-family=\"monospace\" fill=\"#5b6577\">"
        << xmlEscape(fitText(line, layout.detail_chars)) << "</text>";
    }
    if (static_cast<int>(in.size()) > layout.inputs_shown) {
      y += 13;
      s << "<text x=\"" << b.x + 8 << "\" y=\"" << y << "\" font-size=\"10\" font-family=\"monospace\" fill=\"#5b6577\">+"
        << in.size() - static_cast<std::size_t>(layout.inputs_shown) << " more</text>";
    }
    s << "<title>" << xmlEscape(t.kernel + " (" + t.file + ":" + std::to_string(t.line) + ")" + all) << "</title>";
    if (!anchor.empty()) s << "</a>";
    s << "</g>";
  }
  s << "</svg>";
  return s.str();
}

}  // namespace

std::string renderHtmlReport(const HtmlReportInput& in) {
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>"
    << "<title>" << xmlEscape(in.title) << "</title><style>" << kCss << "</style></head><body>";
  s << "<h1>" << xmlEscape(in.title) << "</h1><div class=\"meta\">platform " << xmlEscape(in.platform)
    << " · estimate = port-check from source · actual = the compiler's AllocateMemoryAddr high-water mark</div>";
  const std::vector<ScheduleRow> no_schedule;
  const std::vector<ScheduleRow>& schedule = in.report ? in.report->schedule : no_schedule;
  if (!schedule.empty()) s << scheduleSummaryHtml(schedule);

  const std::vector<SramRow> empty;
  const std::vector<SramRow>& rows = in.report ? in.report->sram : empty;
  // One SRAM card per project + function; the table rows and the task boxes link to it.
  std::vector<std::pair<std::string, std::vector<const SramRow*>>> by_fn;
  for (const SramRow& r : rows) {
    std::string key = r.project + "/" + r.function;
    auto it = std::find_if(by_fn.begin(), by_fn.end(), [&](const auto& p) { return p.first == key; });
    if (it == by_fn.end()) by_fn.push_back({key, {&r}});
    else it->second.push_back(&r);
  }
  std::map<std::string, std::string> card_of_key, card_of_function;
  for (std::size_t i = 0; i < by_fn.size(); ++i) {
    std::string id = anchorId("kernel-" + std::to_string(i) + "-", by_fn[i].second.front()->function);
    card_of_key[by_fn[i].first] = id;
    card_of_function.emplace(by_fn[i].second.front()->function, id);  // the first card of that name
  }
  s << "<h2>SRAM per incore kernel</h2>";
  if (rows.empty()) s << "<p>No incore kernel with a known size was found.</p>";
  else {
    s << "<div class=\"table-panel\"><table id=\"sram-table\"><thead><tr><th class=\"l\">project</th><th class=\"l\">function</th><th class=\"l\">core</th>"
      << "<th class=\"l\">space</th><th>estimate</th><th>actual</th><th>capacity</th><th>use</th></tr></thead><tbody>";
    bool cached = false;
    for (const SramRow& r : rows) {
      std::optional<double> p = utilisationPercent(r);
      const char* cls = p && *p > 100 ? "over" : p && *p >= 90 ? "near" : "";
      s << "<tr><td class=\"l\">" << xmlEscape(r.project) << "</td><td class=\"l\"><a href=\"#"
        << card_of_key[r.project + "/" + r.function] << "\"><code>" << xmlEscape(r.function) << "</code></a></td><td class=\"l\">" << xmlEscape(r.core) << "</td><td class=\"l\">" << xmlEscape(r.space) << "</td><td>"
        << (r.estimate ? num(*r.estimate) : "–") << "</td>";
      if (r.actual && r.actual_source == "cache") {
        cached = true;
        s << "<td class=\"cached\" title=\"read from the compile cache\">" << num(*r.actual) << "*</td><td>";
      } else {
        s << "<td>" << (r.actual ? num(*r.actual) : "–") << "</td><td>";
      }
      s << (r.capacity ? num(r.capacity) : "–") << "</td><td class=\"" << cls << "\">";
      if (p) {
        char b[32];
        std::snprintf(b, sizeof b, "%.1f%%", *p);
        s << b;
      }
      s << "</td></tr>";
    }
    s << "</tbody></table></div>";
    if (cached)
      s << "<p class=\"legend\" id=\"cached-actuals\">* actual read from the compile cache: an earlier compile of the "
           "same sources on this platform, not compiled now.</p>";
    s << "<p class=\"legend\">Bars: blue = estimate, red = estimate over capacity, black tick = actual, dashed red line = capacity.</p>";
    s << "<div id=\"sram-bars\">";
    for (const auto& [key, rs] : by_fn) s << kernelBars(rs.front()->function, card_of_key[key], rs);
    s << "</div>";
  }

  if (!schedule.empty()) {
    s << "<h2>Schedule and device time</h2><p class=\"legend\">One run of each unit, counted from the source; the "
         "device time is the model's estimate (docs/perf-model.md), not a measurement.</p>"
      << scheduleTableHtml(schedule);
    int timeline_index = 0;
    for (const ScheduleRow& r : schedule) {
      const std::string svg = timelineSvg(r, timeline_index++);
      if (svg.empty()) continue;
      s << "<div class=\"card timeline-card\"><h3>" << xmlEscape(r.project) << ": timeline (one lane per core, the critical "
           "path outlined in red)</h3>" << svg << "</div>";
    }
  }

  s << "<h2>Orchestration task graph</h2><div id=\"task-graphs\">";
  bool any = false;
  int graph_index = 0;
  for (const HtmlUnitGraph& u : in.units)
    for (const advice::TaskGraph& g : u.graphs) {
      any = true;
      s << "<div class=\"card graph-card\"><h3>" << xmlEscape(u.unit + ": " + g.caller) << " · " << g.tasks.size()
        << (g.tasks.size() == 1 ? " task" : " tasks") << "</h3><div class=\"graph-panel\">"
        << taskGraphSvg(g, graph_index++, card_of_function) << "</div></div>";
    }
  if (!any) s << "<p>No orchestration function dispatching incore kernels was found.</p>";
  s << "</div>";

  s << "<h2>Advice and SRAM findings</h2><ul class=\"advice\" id=\"advice\">";
  int n = 0;
  if (in.report)
    for (const Diagnostic& d : in.report->diagnostics) {
      if (d.rule.rfind("FUSE", 0) != 0 && d.rule.rfind("MEM", 0) != 0) continue;
      ++n;
      s << "<li><span class=\"sev-" << toString(d.severity) << "\">" << xmlEscape(d.rule) << "</span> <code>"
        << xmlEscape(d.file + ":" + std::to_string(d.line)) << "</code> " << xmlEscape(d.message);
      if (!d.hint.empty()) s << "<div class=\"hint\">hint: " << xmlEscape(d.hint) << "</div>";
      if (!d.notes.empty()) {
        s << "<ul class=\"notes\">";
        for (const DiagnosticNote& n : d.notes)
          s << "<li><code>" << xmlEscape(n.file + (n.line > 0 ? ":" + std::to_string(n.line) : "")) << "</code> "
            << xmlEscape(n.message) << "</li>";
        s << "</ul>";
      }
      s << "</li>";
    }
  if (n == 0) s << "<li>No advice: every kernel fits and no fusion opportunity was found.</li>";
  s << "</ul>";
  if (!in.sections.empty()) {
    s << "<h2>Schedule search</h2>";
    for (const std::string& section : in.sections) s << section;
  }
  s << "</body></html>\n";
  return s.str();
}

}  // namespace portcheck

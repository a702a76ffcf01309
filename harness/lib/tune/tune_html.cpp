#include "tune/tune_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "report/html_report.h"

namespace portcheck::tune {

namespace {

using nlohmann::json;

constexpr int kW = 640, kH = 300, kLeft = 90, kRight = 20, kTop = 16, kBottom = 44;

std::string fixed(double v, int digits = 1) {
  char b[48];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

std::string bytesText(const json& v) {
  if (!v.is_number()) return "unknown";
  const double b = v.get<double>();
  if (b >= 1 << 20) return fixed(b / (1 << 20), 2) + " MiB";
  if (b >= 1 << 10) return fixed(b / (1 << 10), 1) + " KiB";
  return fixed(b, 0) + " B";
}

std::string colourOf(const std::string& verdict) {
  if (verdict == "golden passed") return "#1a7f37";
  if (verdict == "compiled") return "#2f6fdb";
  if (verdict == "estimate only") return "#8c959f";
  if (verdict == "failed") return "#cf222e";
  return "#b0b7c3";  // pruned
}

double useOf(const json& c) {
  if (c.contains("compile") && c["compile"].value("use", 0.0) > 0) return c["compile"]["use"].get<double>();
  return c.value("use", 0.0);
}

std::string plot(const json& configs) {
  double max_use = 1.0, max_bytes = 1.0;
  for (const json& c : configs) {
    max_use = std::max(max_use, useOf(c));
    if (c["gm_bytes"].is_number()) max_bytes = std::max(max_bytes, c["gm_bytes"].get<double>());
  }
  const double pw = kW - kLeft - kRight, ph = kH - kTop - kBottom;
  auto x = [&](double use) { return kLeft + pw * use / max_use; };
  auto y = [&](double bytes) { return kTop + ph * (1.0 - bytes / (max_bytes * 1.1)); };
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kW << "\" height=\"" << kH << "\" class=\"tune-plot\">";
  s << "<line x1=\"" << kLeft << "\" y1=\"" << kTop + ph << "\" x2=\"" << kW - kRight << "\" y2=\"" << kTop + ph
    << "\" stroke=\"#57606a\"/><line x1=\"" << kLeft << "\" y1=\"" << kTop << "\" x2=\"" << kLeft << "\" y2=\"" << kTop + ph
    << "\" stroke=\"#57606a\"/>";
  // Capacity (use 100%).
  s << "<line x1=\"" << x(1.0) << "\" y1=\"" << kTop << "\" x2=\"" << x(1.0) << "\" y2=\"" << kTop + ph
    << "\" stroke=\"#cf222e\" stroke-dasharray=\"4 3\"/><text x=\"" << x(1.0) - 4 << "\" y=\"" << kTop + 10
    << "\" font-size=\"10\" text-anchor=\"end\" fill=\"#cf222e\">capacity</text>";
  for (int i = 0; i <= 4; ++i) {
    const double u = max_use * i / 4;
    s << "<text x=\"" << x(u) << "\" y=\"" << kTop + ph + 14 << "\" font-size=\"10\" text-anchor=\"middle\">"
      << fixed(100 * u, 0) << "%</text>";
  }
  s << "<text x=\"" << kLeft + pw / 2 << "\" y=\"" << kH - 6
    << "\" font-size=\"11\" text-anchor=\"middle\">use of the binding SRAM space</text>";
  for (int i = 0; i <= 3; ++i) {
    const double b = max_bytes * 1.1 * i / 3;
    s << "<text x=\"" << kLeft - 6 << "\" y=\"" << y(b) + 3 << "\" font-size=\"10\" text-anchor=\"end\">"
      << xmlEscape(bytesText(b)) << "</text>";
  }
  s << "<text x=\"12\" y=\"" << kTop + ph / 2 << "\" font-size=\"11\" transform=\"rotate(-90 12 " << kTop + ph / 2
    << ")\" text-anchor=\"middle\">GM bytes per run</text>";
  int rank = 0;
  for (const json& c : configs) {
    const std::string verdict = c.value("verdict", "");
    const bool pruned = verdict == "pruned";
    const double cx = x(useOf(c));
    const double cy = c["gm_bytes"].is_number() ? y(c["gm_bytes"].get<double>()) : kTop + ph;
    std::string tip = c.value("label", "") + ": " + verdict;
    if (pruned) tip += " (" + c.value("pruned", "") + ")";
    else tip += ", rank " + std::to_string(++rank);
    s << "<g class=\"cfg " << (pruned ? "pruned" : "kept") << "\"><title>" << xmlEscape(tip) << "</title>";
    if (pruned)
      s << "<path d=\"M" << cx - 4 << " " << cy - 4 << "L" << cx + 4 << " " << cy + 4 << "M" << cx - 4 << " " << cy + 4
        << "L" << cx + 4 << " " << cy - 4 << "\" stroke=\"" << colourOf(verdict) << "\" stroke-width=\"2\"/>";
    else
      s << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"" << (rank == 1 ? 7 : 5) << "\" fill=\""
        << colourOf(verdict) << "\"" << (c.value("current", false) ? " stroke=\"#000\" stroke-width=\"2\"" : "") << "/>";
    s << "</g>";
  }
  s << "</svg>";
  return s.str();
}

}  // namespace

std::string tuneSectionHtml(const json& t) {
  std::ostringstream s;
  const std::string project = t.value("project", "");
  s << "<section class=\"tune\" id=\"tune-" << xmlEscape(project) << "\"><h3>Schedule search: " << xmlEscape(project)
    << " (" << xmlEscape(t.value("platform", "")) << ")</h3>";
  if (t.contains("problem")) {
    s << "<p>" << xmlEscape(t["problem"].get<std::string>()) << "</p></section>";
    return s.str();
  }
  const json& configs = t["configs"];
  s << "<p class=\"meta\">" << configs.size() << " configurations screened (" << xmlEscape(t.value("strategy", ""))
    << "), " << t.value("pruned_by_estimate", 0) << " pruned by the estimate, " << t.value("compiled", 0)
    << " compiled, " << t.value("ran", 0) << " run on the simulator; compiles saved by the estimate: "
    << t.value("compiles_saved", 0) << ".</p>";
  s << plot(configs);
  s << "<p class=\"legend\">Green: golden passed · blue: compiled cleanly · grey dot: estimate only · red: failed · "
       "grey cross: pruned (hover for why) · ringed: the port as it is · largest dot: the pick.</p>";
  s << "<div class=\"table-panel\"><table><thead><tr><th>rank</th><th class=\"l\">configuration</th><th class=\"l\">verdict</th>"
       "<th>est. µs</th><th>GM bytes</th><th>tasks</th><th class=\"l\">binding space</th><th>use</th><th>hints</th><th>sim s</th>"
       "<th class=\"l\">why</th></tr></thead><tbody>";
  int rank = 0;
  for (const json& c : configs) {
    const std::string verdict = c.value("verdict", "");
    const bool pruned = verdict == "pruned";
    const json* comp = c.contains("compile") ? &c["compile"] : nullptr;
    std::string why = pruned ? c.value("pruned", "") : c.contains("golden") ? c["golden"].value("detail", "") : "";
    if (!pruned && comp && comp->value("status", "") != "ok") why = comp->value("status", "");
    s << "<tr" << (pruned ? " class=\"pruned\"" : "") << "><td>" << (pruned ? std::string("–") : std::to_string(++rank))
      << "</td><td class=\"l\"><code>" << xmlEscape(c.value("label", "")) << "</code>"
      << (c.value("current", false) ? " (now)" : "") << "</td><td class=\"l\">" << xmlEscape(verdict) << "</td><td>"
      << (c.contains("device_us") && c["device_us"].is_number() ? fixed(c["device_us"].get<double>(), 2) : std::string("?"))
      << "</td><td>" << xmlEscape(bytesText(c["gm_bytes"])) << "</td><td>"
      << (c["tasks"].is_number() ? std::to_string(c["tasks"].get<long long>()) : std::string("unknown")) << "</td><td class=\"l\">"
      << xmlEscape(comp ? comp->value("binding", "") : c.value("binding", "")) << "</td><td>" << fixed(100 * useOf(c))
      << "%</td><td>" << (comp ? std::to_string(comp->value("hints", 0)) : std::string("–")) << "</td><td>"
      << (c.contains("golden") ? fixed(c["golden"].value("seconds", 0.0), 2) : std::string("–")) << "</td><td class=\"l\">"
      << xmlEscape(why) << "</td></tr>";
  }
  s << "</tbody></table></div></section>";
  return s.str();
}

std::string tunePageHtml(const json& tune) {
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>"
    << "<title>port-check tune</title><style>body{font-family:sans-serif;margin:24px;color:#1f2328}"
    << "table{border-collapse:collapse;font-size:13px}td,th{padding:3px 8px;border-bottom:1px solid #d0d7de;text-align:right}"
    << ".l{text-align:left}tr.pruned{color:#8c959f}.meta,.legend{color:#57606a;font-size:13px}"
    << ".table-panel{max-height:480px;overflow:auto}</style></head><body><h1>port-check tune</h1>";
  for (const json& t : tune["projects"]) s << tuneSectionHtml(t);
  s << "</body></html>\n";
  return s.str();
}

}  // namespace portcheck::tune

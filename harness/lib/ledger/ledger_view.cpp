#include "ledger/ledger_view.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/text.h"
#include "ledger/attempt_json.h"
#include "output/json_model.h"

namespace portcheck::ledger {

using nlohmann::json;

namespace {

std::string number3(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

std::string percent1(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", v);
  return text;
}

// "2 errors (COMP002, DSL104)": a count and at most three rule IDs.
std::string countWithRules(int n, const std::string& noun, const std::vector<std::string>& rules) {
  std::string text = std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  if (rules.empty()) return text;
  text += " (";
  for (std::size_t i = 0; i < rules.size() && i < 3; ++i) text += (i ? ", " : "") + rules[i];
  return text + (rules.size() > 3 ? ", ...)" : ")");
}

// The row with the highest use of its capacity.
const KernelSram* fullest(const Attempt& a) {
  const KernelSram* best = nullptr;
  for (const KernelSram& r : a.sram)
    if (r.percent() && (!best || *r.percent() > *best->percent())) best = &r;
  return best;
}

std::string when(const std::string& time) {
  // 2026-11-25T09:30:00Z -> 2026-11-25 09:30
  if (time.size() >= 16 && time[10] == 'T') return time.substr(0, 10) + " " + time.substr(11, 5);
  return time;
}

std::string escapeCell(const std::string& text) { return replaceAll(replaceAll(text, "|", "\\|"), "\n", " "); }

std::string loopCell(const AttemptRow& row) {
  std::vector<std::string> ids;
  for (const Diagnostic& d : row.loop)
    if (std::find(ids.begin(), ids.end(), d.rule) == ids.end()) ids.push_back(d.rule);
  std::string text;
  for (const std::string& id : ids) text += (text.empty() ? "" : ", ") + id;
  return text.empty() ? "-" : text;
}

std::string foldedLine(const FoldedSummary& s) {
  std::string text = "attempts " + std::to_string(s.first_attempt) + " to " + std::to_string(s.last_attempt) +
                     " folded into a summary (" + when(s.first_time) + " to " + when(s.last_time) + "): golden " +
                     std::to_string(s.golden_passed) + " passed, " + std::to_string(s.golden_failed) + " not";
  if (s.best_max_abs_err) text += ", best max abs err " + number3(*s.best_max_abs_err);
  if (s.last_golden_pass > 0) text += ", last pass in attempt " + std::to_string(s.last_golden_pass);
  return text;
}

std::string diagnosticLine(const Diagnostic& d) {
  std::string where = d.file.empty() ? "port-check" : d.file;
  if (!d.file.empty() && d.line > 0) where += ":" + std::to_string(d.line);
  std::string text = where + ": " + std::string(toString(d.severity)) + ": " + d.message + " [" + d.rule + "]\n";
  if (!d.hint.empty()) text += "    hint: " + d.hint + "\n";
  return sanitizeUtf8(text);
}

}  // namespace

std::string resultCell(const Attempt& a) {
  if (a.command == "new") return "new: the skeleton as written, not checked yet";
  // Every finding counts, port-check's own (a cancelled or impossible compile) included.
  std::map<Severity, std::vector<std::string>> rules;
  std::map<Severity, int> counts;
  for (const Finding& f : a.findings) {
    ++counts[f.severity];
    auto& ids = rules[f.severity];
    if (std::find(ids.begin(), ids.end(), f.rule) == ids.end()) ids.push_back(f.rule);
  }
  std::string text = a.command + ", exit " + std::to_string(a.exit_code) + ": ";
  if (counts[Severity::Error] == 0 && counts[Severity::Warning] == 0) {
    // The verdict follows the exit status: only a run that exited 0 is clean.
    if (a.exit_code == 0) text += "clean";
    else if (a.exit_code == 1) text += countWithRules(counts[Severity::Info], "info finding", rules[Severity::Info]);
    else text += "not checked (port-check could not do its job)";
  } else {
    if (counts[Severity::Error] > 0) text += countWithRules(counts[Severity::Error], "error", rules[Severity::Error]);
    if (counts[Severity::Warning] > 0)
      text += std::string(counts[Severity::Error] > 0 ? ", " : "") +
              countWithRules(counts[Severity::Warning], "warning", rules[Severity::Warning]);
  }
  for (const StageRecord& s : a.stages)
    if (s.state != "ran") text += "; " + s.name + " " + s.state;
  if (a.repeats > 0) text += "; re-run " + std::to_string(a.repeats) + (a.repeats == 1 ? " time" : " times");
  return text;
}

std::string goldenCell(const Attempt& a) {
  if (!a.golden) return "not run";
  const GoldenOutcome& g = *a.golden;
  if (g.status == "passed") return "passed" + (g.platform.empty() ? "" : " (" + g.platform + ")");
  std::string text = g.status + (g.rule.empty() ? "" : " " + g.rule);
  std::int64_t mismatches = 0, elements = 0;
  for (const GoldenOutputFigures& o : g.outputs) {
    mismatches += o.mismatches;
    elements += o.elements;
  }
  if (elements > 0)
    text += ": " + std::to_string(mismatches) + "/" + std::to_string(elements) + " out of tolerance";
  if (auto e = g.maxAbsErr()) text += ", max abs err " + number3(*e);
  return text;
}

std::string sramCell(const Attempt& a, const Attempt* previous) {
  const KernelSram* row = fullest(a);
  if (!row) return "-";
  std::string text = row->space + " " + percent1(*row->percent()) + (row->actual ? " actual" : " est") + " " + row->kernel;
  const KernelSram* before = previous ? fullest(*previous) : nullptr;
  if (before) {
    double delta = *row->percent() - *before->percent();
    if (delta > 0.05 || delta < -0.05) {
      char d[32];
      std::snprintf(d, sizeof d, " (%+.1f)", delta);
      text += d;
    } else {
      text += " (=)";
    }
  }
  return text;
}

LedgerView buildLedgerView(const LedgerHistory& history, const std::string& project, const LoopSettings& settings,
                           std::optional<int> last) {
  LedgerView view;
  view.project = project;
  view.ledger = ledgerDisplayPath(project);
  view.folded = history.summary ? &*history.summary : nullptr;
  const std::vector<Attempt>& all = history.attempts;
  std::size_t first = 0;
  if (last && *last >= 0 && static_cast<std::size_t>(*last) < all.size()) first = all.size() - static_cast<std::size_t>(*last);
  view.attempts_before_rows = static_cast<int>(first);
  for (std::size_t i = first; i < all.size(); ++i) {
    AttemptRow row;
    row.attempt = &all[i];
    row.change = describeChange(all[i]);
    row.result = resultCell(all[i]);
    row.golden = goldenCell(all[i]);
    row.sram = sramCell(all[i], i > 0 ? &all[i - 1] : nullptr);
    row.loop = runLoopChecks({std::span<const Attempt>(all.data(), i), view.folded, all[i], settings});
    view.rows.push_back(std::move(row));
  }
  if (!view.rows.empty()) view.diagnostics = view.rows.back().loop;
  return view;
}

std::string ledgerText(const LedgerView& view) {
  std::string out = "Attempt ledger of " + view.project + " (" + view.ledger + ")\n";
  if (view.folded) out += "  " + foldedLine(*view.folded) + "\n";
  if (view.attempts_before_rows > 0)
    out += "  " + std::to_string(view.attempts_before_rows) + " earlier attempts not shown (--last)\n";
  if (view.rows.empty()) return out + "  no attempts recorded yet: `port-check check " + view.project + "` records one\n";
  std::vector<std::vector<std::string>> rows = {{"#", "when (UTC)", "change", "result", "golden", "SRAM", "loop"}};
  for (const AttemptRow& r : view.rows)
    rows.push_back({std::to_string(r.attempt->number), when(r.attempt->time), r.change, r.result, r.golden, r.sram,
                    loopCell(r)});
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i)
      width[i] = std::max(width[i], static_cast<std::size_t>(codePointCount(r[i])));
  for (const auto& r : rows) {
    std::string line = " ";
    for (std::size_t i = 0; i < r.size(); ++i) {
      line += " " + sanitizeUtf8(r[i]);
      if (i + 1 < r.size()) line += std::string(width[i] - static_cast<std::size_t>(codePointCount(r[i])) + 1, ' ');
    }
    out += line + "\n";
  }
  if (!view.diagnostics.empty()) {
    out += "\n";
    for (const Diagnostic& d : view.diagnostics) out += diagnosticLine(d);
  }
  return out;
}

std::string ledgerMarkdown(const LedgerView& view) {
  std::string out = "| # | When (UTC) | Change | port-check result | Golden | SRAM | Loop |\n|---|---|---|---|---|---|---|\n";
  if (view.folded)
    out += "| " + std::to_string(view.folded->first_attempt) + "-" + std::to_string(view.folded->last_attempt) +
           " | | " + escapeCell(foldedLine(*view.folded)) + " | | | | |\n";
  for (const AttemptRow& r : view.rows)
    out += "| " + std::to_string(r.attempt->number) + " | " + when(r.attempt->time) + " | " + escapeCell(r.change) +
           " | " + escapeCell(r.result) + " | " + escapeCell(r.golden) + " | " + escapeCell(r.sram) + " | " +
           escapeCell(loopCell(r)) + " |\n";
  if (!view.diagnostics.empty()) {
    out += "\n";
    for (const Diagnostic& d : view.diagnostics) out += "- **" + d.rule + "** " + escapeCell(d.message) + "\n";
  }
  return sanitizeUtf8(out);
}

json ledgerJson(const LedgerView& view, const std::string& doc_base_url) {
  EmitOptions eo;
  eo.doc_base_url = doc_base_url;
  json attempts = json::array();
  for (const AttemptRow& r : view.rows) {
    json a = attemptToJson(*r.attempt);
    a["cells"] = {{"change", r.change}, {"result", r.result}, {"golden", r.golden}, {"sram", r.sram}};
    json loop = json::array();
    for (const Diagnostic& d : r.loop) loop.push_back(diagnosticToJson(d, eo));
    a["loop"] = loop;
    attempts.push_back(std::move(a));
  }
  json diagnostics = json::array();
  for (const Diagnostic& d : view.diagnostics) diagnostics.push_back(diagnosticToJson(d, eo));
  return {{"schema_version", kLedgerJsonSchemaVersion},
          {"project", view.project},
          {"ledger", view.ledger},
          {"folded", view.folded ? summaryToJson(*view.folded) : json(nullptr)},
          {"attempts_not_shown", view.attempts_before_rows},
          {"attempts", attempts},
          {"diagnostics", diagnostics}};
}

}  // namespace portcheck::ledger

#include "output/golden_table.h"

#include <algorithm>
#include <cstdio>

#include "core/text.h"

namespace portcheck {

namespace {

std::string number(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", *v);
  return buf;
}

std::string share(const GoldenOutput& o) {
  char buf[64];
  if (o.mismatch_share > 0 && o.mismatch_share < 0.0005)  // never print a failing output as 0.0%
    std::snprintf(buf, sizeof buf, "%lld/%lld (<0.1%%)", static_cast<long long>(o.mismatches),
                  static_cast<long long>(o.elements));
  else
    std::snprintf(buf, sizeof buf, "%lld/%lld (%.1f%%)", static_cast<long long>(o.mismatches),
                  static_cast<long long>(o.elements), o.mismatch_share * 100.0);
  return buf;
}

}  // namespace

std::string renderGoldenTable(const std::vector<GoldenRun>& runs) {
  if (runs.empty()) return {};
  // A "case" column when a run declares a correctness contract (docs/contract.md): one row per case,
  // seed and output.
  const bool cases = std::any_of(runs.begin(), runs.end(), [](const GoldenRun& g) { return g.contract; });
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head = {"project", "platform", "output", "verdict", "out of tolerance", "max abs err",
                                   "max rel err"};
  if (cases) {
    head.insert(head.begin() + 2, "case");
    head.push_back("cosine");
  }
  rows.push_back(head);
  auto row = [&](const GoldenRun& g, const std::string& label, const GoldenOutput& o) {
    std::vector<std::string> r = {g.project, g.platform, o.name, o.verdict + (g.replayed ? " (replayed)" : ""),
                                  share(o), number(o.max_abs_err), number(o.max_rel_err)};
    if (cases) {
      r.insert(r.begin() + 2, label);
      r.push_back(number(o.cosine));
    }
    rows.push_back(std::move(r));
  };
  for (const GoldenRun& g : runs) {
    if (g.contract && !g.cases.empty()) {
      for (const GoldenCase& c : g.cases) {
        if (c.outputs.empty()) {
          std::vector<std::string> r(head.size(), "-");
          r[0] = g.project;
          r[1] = g.platform;
          r[2] = c.label();
          r[4] = c.status.empty() ? "failed" : c.status;
          rows.push_back(std::move(r));
        }
        for (const GoldenOutput& o : c.outputs) row(g, c.label(), o);
      }
      continue;
    }
    if (g.outputs.empty()) {
      std::string verdict = g.status + (g.failure.empty() ? "" : ": " + g.failure) + (g.rule.empty() ? "" : " [" + g.rule + "]");
      std::vector<std::string> r(head.size(), "-");
      r[0] = g.project;
      r[1] = g.platform;
      r[cases ? 4 : 3] = verdict;
      rows.push_back(std::move(r));
      continue;
    }
    for (const GoldenOutput& o : g.outputs) row(g, "-", o);
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], static_cast<std::size_t>(codePointCount(r[i])));
  std::string out = "Golden comparison (torch.allclose: |actual - expected| <= atol + rtol * |expected|)\n";
  for (const auto& r : rows) {
    std::string line = " ";
    for (std::size_t i = 0; i < r.size(); ++i) {
      line += " " + sanitizeUtf8(r[i]);
      if (i + 1 < r.size()) line += std::string(width[i] - static_cast<std::size_t>(codePointCount(r[i])) + 1, ' ');
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace portcheck

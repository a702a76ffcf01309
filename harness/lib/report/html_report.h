#pragma once
// The self-contained HTML page of `port-check report`: the SRAM table, SRAM bars per incore kernel
// (estimate, actual when known, capacity), the orchestration task graph of each unit (incore
// dispatches with producer -> consumer edges through GM tensors, laid out in layers that fit the page,
// scrolling in its own panel when tall) and the advice. Table rows and task boxes link to their
// kernel's SRAM card. XHTML (well-formed XML) with inline CSS and SVG; no external assets, no scripts.
#include <string>
#include <vector>

#include "advice/task_graph.h"
#include "core/report.h"

namespace portcheck {

struct HtmlUnitGraph {
  std::string unit;                      // project / program name
  std::vector<advice::TaskGraph> graphs;
};

struct HtmlReportInput {
  std::string title;                     // e.g. "port-check report: projects/softmax"
  std::string platform;
  const Report* report = nullptr;        // SRAM rows and diagnostics (advice: FUSE and MEM findings)
  std::vector<HtmlUnitGraph> units;
  std::vector<std::string> sections;     // further XHTML fragments (the last tune of each project)
};

std::string renderHtmlReport(const HtmlReportInput& in);

// Escapes text for XML content and attribute values.
std::string xmlEscape(std::string_view text);

}  // namespace portcheck

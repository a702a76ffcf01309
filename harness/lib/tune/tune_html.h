#pragma once
// The schedule search in HTML (docs/tune.md): for one project's tune (the port-check-tune/1 JSON of
// it), a plot of every configuration screened (x: use of the binding SRAM space, y: GM bytes moved in
// one run), coloured by its verdict, the pruned ones crossed out with why in their tooltip, and the
// ranked table. A fragment for port-check report's page, and a page of its own for tune --html.
#include <string>

#include <nlohmann/json.hpp>

namespace portcheck::tune {

// An XHTML fragment (<section id="tune-<project>">...</section>).
std::string tuneSectionHtml(const nlohmann::json& project_tune);

// A self-contained XHTML page of the sections of `tune` (port-check-tune/1).
std::string tunePageHtml(const nlohmann::json& tune);

}  // namespace portcheck::tune

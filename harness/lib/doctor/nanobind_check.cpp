#include "doctor/nanobind_check.h"

#include "toolchain/nanobind_trap.h"

namespace portcheck::doctor {

namespace {

constexpr const char* kId = "passes.bindings";
constexpr const char* kTitle = "PyPTO bindings (ir.TileView())";

}  // namespace

// The last line of a Python error ("ModuleNotFoundError: No module named 'torch'").
std::string pythonErrorLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  std::size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

Check pyptoBindingsCheck(const ToolchainFacts& f, const std::string& python) {
  const nlohmann::json none = nlohmann::json::object();
  const nlohmann::json& probe = f.probe.is_object() ? f.probe : none;
  const nlohmann::json& tile_view = probe.contains("tile_view") && probe["tile_view"].is_object() ? probe["tile_view"] : none;
  std::string nanobind;
  if (probe.contains("nanobind") && probe["nanobind"].is_object() && probe["nanobind"].value("installed", false))
    nanobind = "nanobind " + probe["nanobind"].value("version", "?") + " installed";
  if (tile_view.empty()) {
    return Check{kId, Level::Passes, kTitle, CheckState::Skipped, "not checked: PyPTO does not import",
                 "fix the checks above"};
  }
  if (tile_view.value("ok", false)) {
    return Check{kId, Level::Passes, kTitle, CheckState::Ok,
                 "ir.TileView() builds" + (nanobind.empty() ? std::string() : " (" + nanobind + ")"), ""};
  }
  std::string error = tile_view.value("error", "");
  if (isNanobindTileViewError(error)) {
    return Check{kId, Level::Passes, kTitle, CheckState::Missing,
                 "`from pypto.pypto_core import ir; ir.TileView()` raises TypeError: __init__(): incompatible "
                 "function arguments, so pypto's parser fails on every program (ParserSyntaxError: Failed to parse "
                 "function ...)" + (nanobind.empty() ? std::string() : "; " + nanobind),
                 nanobindTrapFix(python)};
  }
  return Check{kId, Level::Passes, kTitle, CheckState::Missing, "ir.TileView() fails: " + pythonErrorLine(error),
               "rebuild PyPTO's native module from the checkout (its README's CMake build)"};
}

}  // namespace portcheck::doctor

#include "clangcheck/pto_isa_headers.h"

#include <vector>

namespace portcheck::clangcheck {

namespace fs = std::filesystem;

bool isPtoIsaTree(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "include" / "pto" / "pto-inst.hpp", ec);
}

PtoIsaHeaders locatePtoIsa(const fs::path& root, const std::optional<fs::path>& explicit_dir,
                           const std::optional<fs::path>& pypto_root,
                           const std::function<const char*(const char*)>& getenv_fn) {
  std::vector<std::pair<fs::path, std::string>> candidates;
  if (explicit_dir) {
    candidates.emplace_back(*explicit_dir, "--pto-isa");  // an explicit choice is the only candidate
  } else {
    if (const char* env = getenv_fn("PTO_ISA_ROOT"); env && *env) candidates.emplace_back(env, "PTO_ISA_ROOT");
    candidates.emplace_back(root.parent_path() / "pto-isa", "../pto-isa");
    if (pypto_root) candidates.emplace_back(*pypto_root / "runtime" / "build" / "pto-isa", "pypto runtime");
  }
  PtoIsaHeaders h;
  std::error_code pin_ec;
  if (pypto_root) {
    fs::path pin = fs::absolute(*pypto_root / "runtime" / "build" / "pto-isa", pin_ec).lexically_normal();
    if (isPtoIsaTree(pin)) h.pinned = pin;
  }
  for (const auto& [dir, origin] : candidates) {
    std::error_code ec;
    fs::path abs = fs::absolute(dir, ec).lexically_normal();
    if (isPtoIsaTree(abs)) {
      h.found = true;
      h.root = abs;
      h.origin = origin;
      if (h.pinned && fs::equivalent(*h.pinned, abs, ec)) h.pinned.reset();
      return h;
    }
    if (!h.why_not.empty()) h.why_not += ", ";
    h.why_not += abs.string() + " (" + origin + ")";
  }
  h.why_not = "no PTO-ISA headers (include/pto/pto-inst.hpp) found; looked in " +
              (h.why_not.empty() ? std::string("nothing") : h.why_not) +
              (explicit_dir ? "" : "; PTO_ISA_ROOT is unset or wrong");
  return h;
}

}  // namespace portcheck::clangcheck

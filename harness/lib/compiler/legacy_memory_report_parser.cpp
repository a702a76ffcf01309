#include "compiler/legacy_memory_report_parser.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <system_error>
#include <vector>

#include "compiler/compile_text.h"
#include "core/text.h"

namespace portcheck {
namespace {

struct Size {
  double value = 0;
  std::int64_t unit = 1;  // bytes per printed unit
};

std::optional<Size> parseSize(const std::string& cell) {
  static const std::regex kSize(R"(^([0-9]+(?:\.[0-9]+)?) (B|KB|MB)$)");
  std::smatch m;
  std::string c = trimCopy(cell);
  if (!std::regex_match(c, m, kSize)) return std::nullopt;
  Size s;
  s.value = std::strtod(m[1].str().c_str(), nullptr);  // no exception on a 400-digit figure
  s.unit = m[2].str() == "B" ? 1 : m[2].str() == "KB" ? 1024 : 1024 * 1024;
  // No on-chip figure comes near a terabyte; refusing larger ones keeps the integer bounds in range.
  if (!(s.value * static_cast<double>(s.unit) < 1e12)) return std::nullopt;
  return s;
}

}  // namespace

std::optional<LegacyMemoryReport> parseLegacyMemoryReport(const std::string& text) {
  if (text.find("=== Memory Usage Report ===") == std::string::npos) return std::nullopt;
  LegacyMemoryReport r;
  static const std::regex kFunction(R"(^--- (.+) ---$)");
  static const std::regex kFunctions(R"(^Functions: (\d+)\s*(.*)$)");
  std::string function;
  bool in_buffers = false;
  for (std::string_view raw : splitLines(text)) {
    std::string l = trimCopy(raw);
    std::smatch m;
    if (startsWith(l, "Pass: ")) {
      r.pass = l.substr(6);
      continue;
    }
    if (startsWith(l, "Backend: ")) {
      r.backend = l.substr(9);
      continue;
    }
    if (startsWith(l, "Functions: ") && l.size() < 1024 && std::regex_match(l, m, kFunctions)) {
      r.functions_declared = m[1].length() < 9 ? std::stoi(m[1].str()) : 0;  // stoi throws past INT_MAX
      r.function_kind = trimCopy(m[2].str());
      continue;
    }
    if (startsWith(l, "--- ") && l.size() < 1024 && std::regex_match(l, m, kFunction)) {
      function = m[1].str();
      in_buffers = false;
      continue;
    }
    if (startsWith(l, "Buffers (")) {  // per-buffer detail table of the newer format: not a space row
      in_buffers = true;
      continue;
    }
    if (function.empty() || in_buffers || l.find('|') == std::string::npos) continue;
    std::vector<std::string> cells;
    const std::string split = replaceAll(l, "|", "\n");
    for (std::string_view c : splitLines(split)) cells.push_back(trimCopy(c));
    if (cells.size() < 4 || cells[0] == "Space") continue;
    auto used = parseSize(cells[1]);
    auto limit = parseSize(cells[2]);
    if (!used || !limit) continue;
    LegacyMemoryRow row;
    row.function = function;
    row.space = cells[0];
    row.used_kb = used->value * static_cast<double>(used->unit) / 1024.0;
    row.limit_kb = limit->value * static_cast<double>(limit->unit) / 1024.0;
    std::string pct = cells[3];
    if (!pct.empty() && pct.back() == '%') pct.pop_back();
    try {
      row.usage_percent = pct == "N/A" ? 0 : std::stod(pct);
    } catch (...) {
    }
    if (cells.size() > 4) try {
        row.memrefs = std::stoi(cells[4]);
      } catch (...) {
      }
    // Printed with one decimal: the true value lies within half a unit of the last digit. Integer
    // arithmetic on tenths keeps the bounds exact (144.8 KB -> [148224, 148326]).
    std::int64_t unit = used->unit;
    row.used_bytes = std::llround(used->value * static_cast<double>(unit));
    if (unit == 1) {
      row.used_min = row.used_max = row.used_bytes;
    } else {
      std::int64_t tenths = std::llround(used->value * 10);
      row.used_min = ((2 * tenths - 1) * unit + 19) / 20;
      row.used_max = ((2 * tenths + 1) * unit) / 20;
    }
    row.limit_bytes = std::llround(limit->value * static_cast<double>(limit->unit));
    r.rows.push_back(std::move(row));
  }
  return r;
}

std::optional<std::filesystem::path> findLegacyMemoryReport(const std::filesystem::path& out_dir) {
  std::error_code ec;
  std::filesystem::path dir = out_dir / "report";
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  std::vector<std::filesystem::path> found;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (startsWith(name, "memory_after_") && endsWith(name, ".txt")) found.push_back(it->path());
  }
  if (found.empty()) return std::nullopt;
  std::sort(found.begin(), found.end());
  for (const auto& p : found)
    if (p.filename() == "memory_after_AllocateMemoryAddr.txt") return p;
  return found.back();
}

}  // namespace portcheck

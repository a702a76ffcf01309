#include "compiler/pto_loc_index.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

#include "core/text.h"

namespace portcheck {
namespace {

std::optional<RawLocation> locOnLine(std::string_view line) {
  // The last loc("file":L:C) on the line; loc(callsite(...)) and fused forms are not emitted by PyPTO.
  std::size_t p = line.rfind("loc(\"");
  if (p == std::string_view::npos) return std::nullopt;
  std::size_t q = line.find("\":", p + 5);
  if (q == std::string_view::npos) return std::nullopt;
  std::size_t close = line.find(')', q);
  if (close == std::string_view::npos) return std::nullopt;
  std::string file(line.substr(p + 5, q - p - 5));
  auto rest = parseRawLocation("x" + std::string(line.substr(q + 1, close - q - 1)));
  if (!rest) return std::nullopt;
  return RawLocation{file, rest->line, rest->column};
}

std::size_t indentOf(std::string_view l) {
  std::size_t i = 0;
  while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
  return i;
}

}  // namespace

std::optional<RawLocation> ptoUserLocation(const std::string& pto_text, int line) {
  std::vector<std::string_view> lines = splitLines(pto_text);
  if (line < 1 || static_cast<std::size_t>(line) > lines.size()) return std::nullopt;
  std::string_view first = lines[static_cast<std::size_t>(line) - 1];
  if (auto loc = locOnLine(first)) return loc;
  std::size_t indent = indentOf(first);
  for (std::size_t i = static_cast<std::size_t>(line); i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (trim(l).empty() || indentOf(l) <= indent) break;
    if (auto loc = locOnLine(l)) return loc;
  }
  return std::nullopt;
}

void PtoLocIndex::addText(const std::string& pto_text) {
  static const std::regex kFunc(R"(^\s*func\.func @([\w.$]+)\()");
  static const std::regex kDef(R"(^\s*%([\w.$]+)(?::\d+)? = )");
  std::string function;
  std::vector<std::string_view> lines = splitLines(pto_text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].size() > kMaxLogLineBytes) continue;
    std::string l(lines[i]);
    std::smatch m;
    if (std::regex_search(l, m, kFunc)) {
      function = m[1].str();
      continue;
    }
    if (function.empty() || !std::regex_search(l, m, kDef)) continue;
    std::string value = m[1].str();
    auto& defs = defs_[function];
    if (defs.count(value)) continue;
    if (auto loc = ptoUserLocation(pto_text, static_cast<int>(i) + 1)) defs.emplace(value, *loc);
  }
}

void PtoLocIndex::addOutputFolder(const std::filesystem::path& out_dir) {
  std::vector<std::filesystem::path> files;
  for (const char* sub : {"ptoas", "kernels"}) {
    std::error_code ec;
    std::filesystem::path dir = out_dir / sub;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    for (std::filesystem::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file(ec) && it->path().extension() == ".pto") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::error_code ec;
    if (std::filesystem::file_size(f, ec) > (64u << 20)) continue;  // a generated .pto is far smaller
    std::ifstream in(f, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    addText(ss.str());
  }
}

std::optional<RawLocation> PtoLocIndex::find(const std::string& function, const std::string& value) const {
  auto f = defs_.find(function);
  if (f == defs_.end()) return std::nullopt;
  auto v = f->second.find(value);
  if (v == f->second.end()) return std::nullopt;
  return v->second;
}

}  // namespace portcheck

#include "compiler/memory_dump_parser.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <limits>
#include <regex>
#include <system_error>

#include "core/text.h"

namespace portcheck {
namespace {

// A decimal figure, nullopt when it is not one or does not fit in int64 (no exception).
std::optional<std::int64_t> toInt64(const std::string& text) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// The text between `pl.Tile[` at `open` and its matching ']'.
std::string_view bracketBody(std::string_view line, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < line.size(); ++i) {
    if (line[i] == '[') ++depth;
    if (line[i] == ']' && --depth == 0) return line.substr(open + 1, i - open - 1);
  }
  return {};
}

void parseTiles(const std::string& line, int line_no, DumpFunction& fn) {
  static const std::regex kMemRef(
      R"(pl\.MemRef\(([A-Za-z_]\w*), (?:pl\.const\((-?\d+), pl\.\w+\)|(-?\d+)), (\d+)\), pl\.Mem\.(\w+))");
  const std::string key = ": pl.Tile[";
  std::size_t pos = 0;
  while ((pos = line.find(key, pos)) != std::string::npos) {
    std::size_t name_end = pos;
    std::size_t name_start = name_end;
    while (name_start > 0 && (std::isalnum(static_cast<unsigned char>(line[name_start - 1])) || line[name_start - 1] == '_'))
      --name_start;
    std::string var = line.substr(name_start, name_end - name_start);
    std::size_t open = pos + key.size() - 1;
    std::string body(bracketBody(line, open));
    pos = open + 1;
    if (var.empty() || body.empty()) continue;
    std::smatch m;
    if (!std::regex_search(body, m, kMemRef)) continue;  // no MemRef, or a quoted (DDR) base
    DumpTile t;
    t.var = var;
    t.base = m[1].str();
    // Figures past int64 (fuzz_pass_dump: std::stoll threw) are no real dump: skip the tile.
    std::optional<std::int64_t> offset = toInt64(m[2].matched ? m[2].str() : m[3].str()), size = toInt64(m[4].str());
    if (!offset || !size) continue;
    t.offset = *offset;
    t.size = *size;
    t.space = m[5].str();
    t.line = line_no;
    if (t.space == "DDR") continue;
    fn.tiles.push_back(std::move(t));
  }
}

std::optional<std::int64_t> keywordInt(const std::string& line, const std::string& key) {
  std::regex re(key + R"(=(-?\d+))");
  std::smatch m;
  if (!std::regex_search(line, m, re)) return std::nullopt;
  return toInt64(m[1].str());
}

}  // namespace

PassDump parsePassDump(const std::string& text, const std::string& pass_name) {
  static const std::regex kDecorator(R"(@pl\.function\((?:.*\b)?type=pl\.FunctionType\.(\w+))");
  static const std::regex kDef(R"(^\s*def ([A-Za-z_]\w*)\()");
  static const std::regex kAlloc(R"(([A-Za-z_]\w*): pl\.Ptr = pl\.tile\.alloc\(pl\.Mem\.(\w+), (\d+)\))");
  static const std::regex kReserveName(R"(reserve_buffer\(name='([^']*)')");
  PassDump dump;
  dump.pass = pass_name;
  std::string pending_type;
  DumpFunction* fn = nullptr;
  int line_no = 0;
  for (std::string_view raw : splitLines(text)) {
    ++line_no;
    std::string line(raw);
    std::smatch m;
    if (line.find("@pl.function(") != std::string::npos) {
      pending_type = std::regex_search(line, m, kDecorator) ? m[1].str() : "Opaque";
      continue;
    }
    if (std::regex_search(line, m, kDef)) {
      DumpFunction f;
      f.name = m[1].str();
      f.type = pending_type.empty() ? "Opaque" : pending_type;
      f.line = line_no;
      pending_type.clear();
      dump.functions.push_back(std::move(f));
      fn = &dump.functions.back();
      // A one-line def may carry tiles in its signature (never in PyPTO, but harmless).
      continue;
    }
    if (!fn) continue;
    if (line.find("pl.tile.alloc(") != std::string::npos && std::regex_search(line, m, kAlloc)) {
      if (std::optional<std::int64_t> bytes = toInt64(m[3].str())) fn->allocs.push_back(DumpAlloc{m[1].str(), m[2].str(), *bytes});
      continue;
    }
    if (line.find("pl.system.reserve_buffer(") != std::string::npos) {
      DumpReserve r;
      if (std::regex_search(line, m, kReserveName)) r.name = m[1].str();
      r.size = keywordInt(line, "size").value_or(0);
      r.base = keywordInt(line, "base").value_or(-1);
      fn->reserves.push_back(std::move(r));
      continue;
    }
    if (line.find(": pl.Tile[") != std::string::npos) parseTiles(line, line_no, *fn);
  }
  return dump;
}

std::string passNameOf(const std::filesystem::path& dump) {
  std::string stem = dump.stem().string();
  std::size_t after = stem.find("_after_");
  if (after != std::string::npos) return stem.substr(after + 7);
  std::size_t us = stem.find('_');
  return us == std::string::npos ? stem : stem.substr(us + 1);
}

namespace {

// (number, path) of every NN_*.py under out_dir/passes_dump.
std::vector<std::pair<int, std::filesystem::path>> numberedDumps(const std::filesystem::path& out_dir) {
  std::vector<std::pair<int, std::filesystem::path>> out;
  std::error_code ec;
  std::filesystem::path dir = out_dir / "passes_dump";
  if (!std::filesystem::is_directory(dir, ec)) return out;
  static const std::regex kName(R"(^(\d+)_.*\.py$)");
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::smatch m;
    if (!std::regex_match(name, m, kName) || !it->is_regular_file(ec)) continue;
    std::optional<std::int64_t> order = parseInt64(m[1].str());
    if (!order || *order > std::numeric_limits<int>::max()) continue;  // no pass dump PyPTO writes
    out.emplace_back(static_cast<int>(*order), it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<std::filesystem::path> findPassDump(const std::filesystem::path& out_dir, const std::string& pass) {
  std::optional<std::filesystem::path> found;
  for (const auto& [n, p] : numberedDumps(out_dir))
    if (passNameOf(p) == pass) found = p;
  return found;
}

std::optional<std::filesystem::path> lastPassDump(const std::filesystem::path& out_dir) {
  auto dumps = numberedDumps(out_dir);
  if (dumps.empty()) return std::nullopt;
  return dumps.back().second;
}

}  // namespace portcheck

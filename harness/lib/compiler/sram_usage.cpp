#include "compiler/sram_usage.h"

#include <algorithm>
#include <map>
#include <set>

namespace portcheck {

std::string reserveSpace(const DumpFunction& fn) { return fn.type == "AIC" ? "Mat" : "Vec"; }

std::vector<SpaceUsage> spaceUsage(const DumpFunction& fn, const SourceLocator* locator, std::size_t max_tiles) {
  std::map<std::string, SpaceUsage> by_space;
  std::map<std::string, std::set<std::string>> vars, bases;
  struct Buffer {
    std::string first_var;
    std::int64_t size = 0;
    std::size_t order = 0;
  };
  std::map<std::string, std::map<std::tuple<std::string, std::int64_t, std::int64_t>, Buffer>> buffers;
  std::size_t order = 0;
  for (const DumpTile& t : fn.tiles) {
    SpaceUsage& u = by_space[t.space];
    u.hwm = std::max(u.hwm, t.offset + t.size);
    vars[t.space].insert(t.var);
    bases[t.space].insert(t.base);
    auto key = std::make_tuple(t.base, t.offset, t.size);
    auto& b = buffers[t.space];
    if (!b.count(key)) b[key] = Buffer{t.var, t.size, order++};
  }
  const std::string ring_space = reserveSpace(fn);
  for (const DumpReserve& r : fn.reserves) {
    auto it = by_space.find(ring_space);
    if (it == by_space.end()) continue;  // a ring with no tiles beside it is not a tile figure
    it->second.reserved += r.size;
    if (r.base >= 0) it->second.hwm = std::max(it->second.hwm, r.base + r.size);
    // The ring is no tile, but it takes space like one: list it among the largest buffers.
    buffers[ring_space][std::make_tuple("system.reserve_buffer:" + r.name, r.base, r.size)] =
        Buffer{"system.reserve_buffer '" + r.name + "' (cross-core pipe ring)", r.size, order++};
  }
  std::vector<SpaceUsage> out;
  auto emit = [&](const std::string& space) {
    auto it = by_space.find(space);
    if (it == by_space.end()) return;
    SpaceUsage u = it->second;
    u.function = fn.name;
    u.core = fn.type;
    u.space = space;
    u.tile_vars = static_cast<int>(vars[space].size());
    u.bases = static_cast<int>(bases[space].size());
    std::vector<Buffer> list;
    for (const auto& [key, b] : buffers[space]) list.push_back(b);
    std::stable_sort(list.begin(), list.end(), [](const Buffer& a, const Buffer& b) {
      return a.size != b.size ? a.size > b.size : a.order < b.order;
    });
    for (const Buffer& b : list) {
      if (u.largest.size() >= max_tiles) break;
      SramTile t;
      t.name = b.first_var;
      t.bytes = b.size;
      if (locator && b.first_var.find(' ') == std::string::npos)
        if (auto loc = locator->tile(fn.name, b.first_var)) {
          t.file = loc->file;
          t.line = loc->line;
        }
      u.largest.push_back(std::move(t));
    }
    out.push_back(std::move(u));
  };
  for (std::string_view s : kMemorySpaces) emit(std::string(s));
  for (const auto& [space, u] : by_space)  // spaces outside the known list (ScalarLocal, ...)
    if (std::find(std::begin(kMemorySpaces), std::end(kMemorySpaces), space) == std::end(kMemorySpaces)) emit(space);
  return out;
}

std::int64_t packedBytes(const DumpFunction& fn, const std::string& space) {
  std::int64_t total = 0;
  for (const DumpAlloc& a : fn.allocs)
    if (a.space == space) total += alignUp(a.size);
  if (reserveSpace(fn) == space)
    for (const DumpReserve& r : fn.reserves) total += alignUp(r.size);
  return total;
}

const DumpFunction* attributeOverflow(const PassDump& dump, const std::string& space, std::int64_t used,
                                      std::int64_t limit) {
  const DumpFunction* exact = nullptr;
  const DumpFunction* over = nullptr;
  const DumpFunction* largest = nullptr;
  std::int64_t over_bytes = -1, largest_bytes = 0;
  for (const DumpFunction& fn : dump.functions) {
    if (!fn.isCompute()) continue;
    std::int64_t bytes = packedBytes(fn, space);
    if (bytes <= 0) continue;
    if (bytes == used && !exact) exact = &fn;
    if (bytes > limit && bytes > over_bytes) {
      over = &fn;
      over_bytes = bytes;
    }
    if (bytes > largest_bytes) {
      largest = &fn;
      largest_bytes = bytes;
    }
  }
  return exact ? exact : over ? over : largest;
}

SramRow toSramRow(const SpaceUsage& usage, const std::string& project, Platform platform) {
  SramRow row;
  row.project = project;
  row.function = usage.function;
  row.core = usage.core;
  row.space = usage.space;
  row.actual = usage.hwm;
  row.capacity = capacityBytes(platform, usage.space);
  row.tiles = usage.tile_vars;
  row.largest = usage.largest;
  return row;
}

}  // namespace portcheck

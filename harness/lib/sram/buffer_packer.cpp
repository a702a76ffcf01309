#include "sram/buffer_packer.h"

#include <algorithm>
#include <numeric>

#include "core/platform.h"

namespace portcheck::sram {

bool overlaps(const Interval& a, const Interval& b) { return !(a.last <= b.def || b.last <= a.def); }

bool conflicts(const Interval& a, const Interval& b) {
  if (overlaps(a, b)) return true;
  auto forbids = [](const Interval& x, const Interval& y) {
    return y.id >= 0 && std::find(x.no_share.begin(), x.no_share.end(), y.id) != x.no_share.end();
  };
  return forbids(a, b) || forbids(b, a);
}

Packing pack(std::vector<Interval>& tiles, std::int64_t reserved) {
  // Largest first; ties in program order (stable), as MemoryReuse's first-fit-decreasing packer.
  std::vector<std::size_t> order(tiles.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (tiles[a].bytes != tiles[b].bytes) return tiles[a].bytes > tiles[b].bytes;
    return tiles[a].def < tiles[b].def;
  });
  std::vector<std::vector<std::size_t>> members;
  Packing p;
  for (std::size_t i : order) {
    Interval& t = tiles[i];
    int chosen = -1;
    for (std::size_t b = 0; b < members.size() && chosen < 0; ++b) {
      bool ok = std::none_of(members[b].begin(), members[b].end(),
                             [&](std::size_t m) { return conflicts(tiles[m], t); });
      if (ok) chosen = static_cast<int>(b);
    }
    if (chosen < 0) {
      chosen = static_cast<int>(members.size());
      members.emplace_back();
      p.buffers.push_back(alignUp(t.bytes));  // the first member is the largest
    }
    members[static_cast<std::size_t>(chosen)].push_back(i);
    t.buffer = chosen;
  }
  p.hwm = alignUp(reserved);
  for (std::int64_t b : p.buffers) p.hwm += b;
  return p;
}

}  // namespace portcheck::sram

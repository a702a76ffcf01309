#include "sram/buffer_packer.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "core/platform.h"

namespace portcheck::sram {

namespace {

// Every (group, stage) membership of a tile: its own loop's clone, then the enclosing loops' clones.
template <class F>
void forEachPipe(const Interval& t, F&& f) {
  if (t.pipe_group < 0) return;
  f(t.pipe_group, t.pipe_stage);
  for (const auto& [g, st] : t.outer_pipes) f(g, st);
}

struct CloneApart {
  int group = -1;          // the loop whose clones hold the two tiles, different ones (-1: none)
  int stage_a = -1, stage_b = -1;
};

// The outermost loop whose clones hold both tiles but different ones (the memberships are listed
// innermost first, so the last match wins).
CloneApart outermostCloneApart(const Interval& a, const Interval& b) {
  CloneApart found;
  forEachPipe(a, [&](int ga, int sa) {
    forEachPipe(b, [&](int gb, int sb) {
      if (ga == gb && sa != sb) found = {ga, sa, sb};
    });
  });
  return found;
}

}  // namespace

bool overlaps(const Interval& a, const Interval& b) {
  // Clones of one pl.pipeline body run one after another in program order, except that
  // CanonicalizeIOOrder hoists every clone's loads to the top of that loop's clones: a later clone's
  // tile is live with an earlier clone's only when it is a load of that loop's own body (a load of a
  // loop nested in it is hoisted within its own clone of the outer body, not above the earlier one).
  if (CloneApart c = outermostCloneApart(a, b); c.group >= 0) {
    const Interval& later = c.stage_a > c.stage_b ? a : b;
    if (!later.is_load || later.pipe_group != c.group) return false;
  }
  return !(a.last <= b.def || b.last <= a.def);
}

bool conflicts(const Interval& a, const Interval& b) {
  if (overlaps(a, b)) return true;
  auto forbids = [](const Interval& x, const Interval& y) {
    return y.id >= 0 && std::find(x.no_share.begin(), x.no_share.end(), y.id) != x.no_share.end();
  };
  return forbids(a, b) || forbids(b, a);
}

namespace {

using Apart = std::function<bool(const Interval&, const Interval&)>;

// First-fit-decreasing: largest first, ties in program order (stable), as MemoryReuse's packer.
Packing packOnce(std::vector<Interval>& tiles, std::int64_t reserved, const Apart& apart) {
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
      bool ok = std::none_of(members[b].begin(), members[b].end(), [&](std::size_t m) {
        return conflicts(tiles[m], t) || apart(tiles[m], t);
      });
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

struct StageGroup {
  std::int64_t slot = 0;          // its largest tile
  std::map<int, int> ordinal;     // stage -> dense ordinal
  int depth = 1;                  // how many residues its stages are kept apart in
};

}  // namespace

Packing pack(std::vector<Interval>& tiles, std::int64_t reserved, SpaceLimits limits) {
  std::map<int, StageGroup> groups;
  for (const Interval& t : tiles)
    forEachPipe(t, [&](int group, int stage) {
      StageGroup& g = groups[group];
      g.slot = std::max(g.slot, t.bytes);
      g.ordinal.emplace(stage, 0);
    });
  for (auto& [id, g] : groups) {
    int n = 0;
    for (auto& [stage, ord] : g.ordinal) ord = n++;
    g.depth = limits.capacity > 0 && g.slot > 0
                  ? static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(n, limits.capacity / g.slot)))
                  : 1;
  }
  bool legacy = limits.capacity <= 0;
  // Kept apart when, in a loop whose clones hold both, their stages fall in different residues of the
  // group's depth (MemoryReuse compares every shared group of the two memberships).
  auto apart = [&](const Interval& a, const Interval& b) {
    if (legacy) return outermostCloneApart(a, b).group >= 0 && !limits.l0 && (a.is_load || b.is_load);
    bool separate = false;
    forEachPipe(a, [&](int ga, int sa) {
      forEachPipe(b, [&](int gb, int sb) {
        if (separate || ga != gb || sa == sb) return;
        const StageGroup& g = groups.at(ga);
        separate = g.ordinal.at(sa) % g.depth != g.ordinal.at(sb) % g.depth;
      });
    });
    return separate;
  };
  Packing p = packOnce(tiles, reserved, apart);
  while (!legacy && p.hwm > limits.capacity) {
    // Shed a level from the group that frees the most (its aligned largest tile), lowest id on ties.
    StageGroup* shed = nullptr;
    for (auto& [id, g] : groups)
      if (g.depth > 1 && (!shed || alignUp(g.slot) > alignUp(shed->slot))) shed = &g;
    if (!shed) {
      legacy = true;  // no depth fits: MemoryReuse re-packs with the legacy guard
    } else {
      --shed->depth;
    }
    p = packOnce(tiles, reserved, apart);
  }
  return p;
}

}  // namespace portcheck::sram

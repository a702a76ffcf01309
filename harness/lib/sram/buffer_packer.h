#pragma once
// How PyPTO lays tiles into on-chip buffers, modelled on its MemoryReuse + AllocateMemoryAddr passes:
// within one memory space, tiles are packed first-fit-decreasing (largest first; a tile joins the first
// buffer all of whose members' lifetimes it does not overlap, touching allowed: a tile whose last use is
// the statement defining another may share with it), each buffer is sized by its largest member and
// 32-byte aligned, and the buffers are laid out one after another above the space's reserved region
// (the cross-core pipe ring). The high-water mark is reserved + the sum of the buffer sizes.
// Tiles of one pl.pipeline loop's clones (LowerPipelineLoops' (group, stage) membership) are kept apart
// stage from stage only as deep as the space affords (MemoryReuse's capacity gate, pypto #1475): each
// group starts at min(stages, capacity / largest tile) buffers' worth of separation, and while the
// packing overflows the space the group with the largest tile sheds a level (ties: the lowest group
// id, the loop lowered first); at depth 1 its stages share buffers by lifetime alone.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace portcheck::sram {

struct Interval {
  std::string name;
  std::int64_t bytes = 0;  // unaligned tile size
  int def = 0;             // program point of the definition
  int last = 0;            // program point of the last use (>= def)
  int line = 0;
  bool implicit = false;   // inserted by the compiler (implicit load, AutoTileMatmulL0 L0 tile)
  std::vector<std::int64_t> shape;  // static shape when known (empty otherwise)
  std::vector<std::int64_t> extent; // the largest shape the tile can grow to: the whole GM tensor it is
                                    // loaded from / stored into, through views (empty: unknown)
  std::string loads_from;  // the tensor a pl.load fills it from (name in the kernel's function)
  std::string stores_to;   // the tensor a pl.store writes it to
  // Bytes the pl.load / pl.store moves through GM: the tile's elements in the GM tensor's element type,
  // which may differ from the tile's (an FP32 accumulator stored into a BF16 tensor moves 2 bytes an
  // element). 0: unknown, then `bytes` stands in.
  std::int64_t loaded_bytes = 0;
  std::int64_t stored_bytes = 0;
  int pipe_group = -1;     // the pl.pipeline loop whose clone defines it (-1: none), and the clone
  int pipe_stage = 0;      // index; lower group ids are the loops the compiler lowers first
  // The clones of the pl.pipeline loops around that one, innermost first, (group, stage) each: a loop
  // nested in a pipelined loop is cloned inside every clone of the outer body (pipeline_membership
  // holds one pair per loop).
  std::vector<std::pair<int, int>> outer_pipes;
  bool is_load = false;    // filled by a load (explicit or implicit): the legacy stage guard keeps these apart
  int buffer = -1;         // filled by pack(): the buffer the tile lands in
  int id = -1;             // identifies the tile for no_share (unique within a kernel; -1: none)
  std::vector<int> no_share;  // ids of tiles it may not share a buffer with although their lifetimes
                              // only touch: the inputs of an op that cannot write its output in place
                              // (MemoryReuse's not_inplace_safe / widening-cast forbid-alias set)
};

struct Packing {
  std::int64_t hwm = 0;                // reserved + sum of aligned buffer sizes
  std::vector<std::int64_t> buffers;   // aligned size of each buffer, in creation order
};

// True when the two lifetimes overlap (touching does not count).
bool overlaps(const Interval& a, const Interval& b);

// True when the two tiles may not share a buffer: their lifetimes overlap, or one is an input the
// other's op may not alias.
bool conflicts(const Interval& a, const Interval& b);

// The space a packing fills: its capacity gates how far pipeline stages stay apart (0: unknown, the
// legacy guard applies), and the L0 spaces (Left/Right/Acc) are exempt from the legacy guard.
struct SpaceLimits {
  std::int64_t capacity = 0;
  bool l0 = false;
};

// Packs `tiles` (assigns Interval::buffer) above `reserved` bytes.
Packing pack(std::vector<Interval>& tiles, std::int64_t reserved = 0, SpaceLimits limits = {});

}  // namespace portcheck::sram

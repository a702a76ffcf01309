#pragma once
// On-chip memory use from a pass dump: per function and memory space, the high-water mark
// max(offset + size) over the tiles' MemRefs (what pypto's verifier and memory_map compute), plus the
// cross-core pipe ring system.reserve_buffer holds at the bottom of the space; and, for an overflow
// that names no function, which function's packing reaches the reported figure.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/memory_dump_parser.h"
#include "compiler/source_locator.h"
#include "core/platform.h"
#include "core/report.h"

namespace portcheck {

struct SpaceUsage {
  std::string function;
  std::string core;  // the dump's FunctionType (AIC, AIV, InCore, Orchestration, ...)
  std::string space;
  std::int64_t hwm = 0;       // max(offset + size), the reserved ring included
  std::int64_t reserved = 0;  // bytes system.reserve_buffer holds in this space
  int tile_vars = 0;          // distinct tile variables with a MemRef in this space
  int bases = 0;              // distinct allocation roots they use
  std::vector<SramTile> largest;  // one entry per distinct buffer, largest first
};

// The space a function's system.reserve_buffer lives in: Vec on the vector core, Mat on the cube core.
std::string reserveSpace(const DumpFunction& fn);

// Usage rows of one function, in kMemorySpaces order. Tile names resolved through `locator` when given.
std::vector<SpaceUsage> spaceUsage(const DumpFunction& fn, const SourceLocator* locator, std::size_t max_tiles = 5);

// Bytes the allocator would lay out for `space` in `fn` from a dump taken before addresses exist
// (MemoryReuse): every allocation root 32-byte aligned one after another, above the reserved ring.
std::int64_t packedBytes(const DumpFunction& fn, const std::string& space);

// The compute function whose packing in `space` gives `used` bytes (exactly, else the largest above
// `limit`, else the largest), or nullptr when no compute function uses the space.
const DumpFunction* attributeOverflow(const PassDump& dump, const std::string& space, std::int64_t used,
                                      std::int64_t limit);

SramRow toSramRow(const SpaceUsage& usage, const std::string& project, Platform platform);

}  // namespace portcheck

#pragma once
// Reads the memory facts out of a PyPTO pass dump (passes_dump/NN_after_<Pass>.py, itself a valid
// @pl.program): per function its type, the allocation roots
//   mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 65536)
// the tiles bound to them
//   tx__ssa_v0: pl.Tile[[64, 128], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 32768), pl.Mem.Vec] = ...
// and the system.reserve_buffer rings (the cross-core pipe). DDR MemRefs (quoted bases on pl.Tensor)
// and tiles without a MemRef (tpop_from_aic results) are left out.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace portcheck {

struct DumpTile {
  std::string var;
  std::string base;
  std::int64_t offset = 0;
  std::int64_t size = 0;
  std::string space;
  int line = 0;  // line in the dump
};

struct DumpAlloc {
  std::string base;
  std::string space;
  std::int64_t size = 0;
};

struct DumpReserve {
  std::string name;
  std::int64_t size = 0;
  std::int64_t base = -1;  // -1 = not resolved yet (before AllocateMemoryAddr)
};

struct DumpFunction {
  std::string name;
  std::string type;  // FunctionType: AIC, AIV, InCore, Orchestration, Group, Opaque, ...
  int line = 0;      // line of the def in the dump
  std::vector<DumpTile> tiles;
  std::vector<DumpAlloc> allocs;
  std::vector<DumpReserve> reserves;

  bool isCompute() const { return type == "AIC" || type == "AIV" || type == "InCore"; }
};

struct PassDump {
  std::string pass;  // from the file name, e.g. "AllocateMemoryAddr"
  std::vector<DumpFunction> functions;
};

PassDump parsePassDump(const std::string& text, const std::string& pass_name = {});

// passes_dump/NN_after_<pass>.py, matched by pass name (the number moves between builds and planners);
// the highest number wins when several match.
std::optional<std::filesystem::path> findPassDump(const std::filesystem::path& out_dir, const std::string& pass);
// The dump with the highest number in passes_dump/ (the last pass that ran), excluding logs.
std::optional<std::filesystem::path> lastPassDump(const std::filesystem::path& out_dir);
// "34_after_MemoryReuse.py" -> "MemoryReuse"; "00_frontend.py" -> "frontend".
std::string passNameOf(const std::filesystem::path& dump);

}  // namespace portcheck

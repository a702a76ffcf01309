#pragma once
// The names pypto.language exports (pl.<name>, pl.tile.<name>, ...), for resolving and checking
// pl.* references. The table is generated from the pinned pypto sources (pl_names_table.inc).
#include <span>
#include <string_view>

namespace portcheck::dsl {

enum class PlNameKind {
  UnifiedOp,    // dispatches on Tensor / Tile operands (pl.add, pl.matmul, pl.row_max, ...)
  TileOp,       // tile level (pl.load, pl.store, pl.move, pl.create_tile, pl.tile.*)
  TensorOp,     // tensor level (pl.create_tensor, pl.full, pl.dim, pl.tensor.*)
  SystemOp,     // pl.system.*, pl.tpush_to_aiv, ...
  ArrayOp,      // pl.array.*
  PrefetchOp,   // pl.prefetch.*
  Loop,         // pl.range / parallel / pipeline / unroll / while_
  LoopOrScope,  // pl.spmd, pl.split_aiv (for-iterator or with-scope)
  Scope,        // pl.at, pl.cluster, pl.scope, pl.manual_scope
  Decorator,    // pl.jit (+ .incore/.inline/.host/.extern), pl.function, pl.program, pl.inline
  Type,         // pl.Tensor, pl.Tile, pl.Scalar, pl.Out, pl.InOut, pl.dynamic, ...
  DType,        // pl.FP32, pl.BF16, ...
  Enum,         // pl.MemorySpace, pl.FunctionType, pl.Level, ... (members accepted as X.<member>)
  Constant,     // pl.ND, pl.AUTO, ...
  Namespace,    // pl.tile, pl.tensor, pl.system, pl.array, pl.prefetch, ...
  Helper        // pl.yield_, pl.cond, pl.const, pl.split, pl.cross_core_slot, pl.parse, ...
};

struct PlName {
  std::string_view name;
  PlNameKind kind;
};

// The entry for a name relative to the pl alias ("load", "tile.load", "MemorySpace.Vec",
// "jit.incore"); nullptr when pypto.language has no such name. Enum / type members resolve to the
// enum / type entry.
const PlName* findPlName(std::string_view relative);
// True for the operation kinds (UnifiedOp, TileOp, TensorOp, SystemOp, ArrayOp, PrefetchOp).
bool isOperation(PlNameKind k);
// The whole table, sorted by name.
std::span<const PlName> plNames();

}  // namespace portcheck::dsl

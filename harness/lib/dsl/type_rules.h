#pragma once
// Result types of pl.* operations (tensor or tile, shape, dtype, memory space), following the
// pypto op signatures and C++ type deduction (src/ir/op/tile_ops, python/pypto/language/op).
#include <functional>
#include <optional>

#include "dsl/dsl_model.h"

namespace portcheck::dsl {

struct OpArgs {
  const Function& fn;
  const Expr& call;
  std::function<Shape(int)> shape_of;     // a shape argument (list / tuple / tuple constant)
  std::function<DType(int)> dtype_of;     // a dtype argument (pl.FP32)
  std::function<MemSpace(int)> space_of;  // a memory-space argument (pl.MemorySpace.Mat)
};

// The type of the value a pl.* call produces; nullopt when it produces none (loops, scopes,
// pl.yield_ is handled by the caller) or the name is not an operation.
std::optional<TypeInfo> inferPlCall(const OpArgs& a);

// The packed predicate mask a comparison of `compared` gives (tile.cmp / tile.cmps): UINT8, one bit
// per element, each row's ceil(columns / 8) bytes rounded up to 32 (MakePackedPredicateTileType).
TypeInfo compareMaskType(const TypeInfo& compared);

}  // namespace portcheck::dsl

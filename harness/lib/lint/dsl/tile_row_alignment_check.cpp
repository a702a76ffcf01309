#include "lint/dsl/tile_row_alignment_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

void TileRowAlignmentCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                      std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl()) continue;
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      std::string_view base = opBase(call.pl_name);
      bool creates = base == "load" || base == "create_tile" || (call.pl_name == "tile.create");
      if (call.pl_name.empty() || !creates || call.pl_name.rfind("tensor.", 0) == 0) continue;
      const dsl::Value* v = fn.valueOf(c);
      if (!v || v->type.kind != dsl::ValueKind::Tile || v->type.space != dsl::MemSpace::Vec) continue;
      const dsl::Shape& sh = v->type.shape;
      if (!sh.rank_known || sh.dims.empty() || !sh.dims.back()) continue;
      std::int64_t cols = *sh.dims.back();
      if (cols == 1) continue;  // column vectors: checked below, over every op that makes one
      auto row = v->type.innermostBytes();
      if (!row || *row % 32 == 0) continue;
      int bits = dsl::dtypeBits(v->type.dtype);
      std::int64_t per32 = bits > 0 ? 256 / bits : 0;
      std::string dt(dsl::dtypeName(v->type.dtype));
      out.push_back(makeDiagnostic(
          "DSL111", file.path, call.loc.line, call.loc.col,
          "Vec tile " + sh.str() + " " + dt + " has an innermost row of " + std::to_string(*row) +
              " bytes, not a multiple of 32: UB tile rows must be 32-byte aligned",
          per32 > 0 ? "make the innermost dimension a multiple of " + std::to_string(per32) + " " + dt +
                          " elements (e.g. " + std::to_string((cols + per32 - 1) / per32 * per32) +
                          ") and mask the tail with valid_shape"
                    : "make the innermost dimension × element size a multiple of 32 bytes"));
    }
    // A [N, 1] column (a row reduction's result, a per-row scale) is laid out column-major, so its rows are
    // what must be 32-byte aligned: pto-isa's Tile static_assert (include/pto/common/pto_tile.hpp,
    // "ColMajor and SFractal_ is NoneBox": Rows * sizeof(DType) % 32 == 0), which fires only when the
    // simulator or the device compiles the kernel. Checked on every op that makes one.
    for (const dsl::Value& v : fn.values) {
      // A tile in Vec, or tensor-level compute the compiler keeps on chip (a row_sum in a pl.spmd body).
      const bool vec_tile = v.type.kind == dsl::ValueKind::Tile && v.type.space == dsl::MemSpace::Vec;
      const bool on_chip_tensor = v.type.kind == dsl::ValueKind::Tensor && v.on_chip;
      if (v.def_expr < 0 || !(vec_tile || on_chip_tensor)) continue;
      const dsl::Expr& call = exprOf(fn, v.def_expr);
      if (!call.isPlCall()) continue;
      const dsl::Shape& sh = v.type.shape;
      if (!sh.rank_known || sh.dims.size() != 2 || !sh.dims[0] || !sh.dims[1] || *sh.dims[1] != 1) continue;
      const std::int64_t rows = *sh.dims[0];
      const int bits = dsl::dtypeBits(v.type.dtype);
      if (rows <= 1 || bits <= 0 || (rows * bits / 8) % 32 == 0) continue;
      const std::int64_t per32 = 256 / bits;
      std::string dt(dsl::dtypeName(v.type.dtype));
      out.push_back(makeDiagnostic(
          "DSL111", file.path, call.loc.line, call.loc.col,
          "Vec column tile " + sh.str() + " " + dt + " from " + plSpelled(call.pl_name) + " has " +
              std::to_string(rows) + " rows = " + std::to_string(rows * bits / 8) +
              " bytes, not a multiple of 32: a column tile is column-major and its rows must be 32-byte aligned "
              "(pto-isa's Tile static_assert fails when the kernel is compiled for the simulator or the device)",
          "make the row count a multiple of " + std::to_string(per32) + " (" + dt + ")"));
    }
  }
}

}  // namespace portcheck

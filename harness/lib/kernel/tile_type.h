#pragma once
// The pto::Tile template as the kernel model sees it (pto-isa include/pto/common/pto_tile.hpp:1390-1395):
// location, element type, static shape, layouts. Values the linter cannot evaluate stay unknown.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace portcheck::kernel {

// TileType (pto-isa include/pto/common/type.hpp:123-134).
enum class Loc { Unknown, Vec, Mat, Left, Right, Acc, Bias, Scaling, ScaleLeft, ScaleRight, Ctrl };

std::string_view toString(Loc loc);
std::optional<Loc> parseLoc(std::string_view name);  // "Vec", "TileType::Vec"
// Vec work runs on the vector core (AIV); Mat/Left/Right/Acc/Bias/Scaling work on the cube core (AIC).
bool isCubeLoc(Loc loc);

struct TileType {
  Loc loc = Loc::Unknown;
  std::string dtype;                 // normalised element type ("float", "half", "bf16", "int8_t", ...) or as spelled
  std::optional<std::int64_t> rows, cols;
  std::optional<std::int64_t> valid_rows, valid_cols;  // -1 = pto::DYNAMIC
  std::string blayout = "RowMajor";  // BLayout
  std::string slayout = "NoneBox";   // SLayout
  std::string canonical;             // one spelling per distinct type: equal strings = same C++ type
  bool conv = false;                 // a ConvTile (shape in a ConvTileShape<...> argument)
  bool conv_dynamic_shape = false;   // conv: a ConvTileShape dimension is pto::DYNAMIC (-1)

  // Element size in bytes when the dtype is a known arithmetic type.
  std::optional<int> elementBytes() const;
  // Rows*Cols*sizeof(T): the full capacity the tile occupies (pto-isa tassign_check.hpp TileStorageBytes).
  std::optional<std::int64_t> bytes() const;
};

// "half", "float16_t", "__fp16", "aclFloat16" -> "half"; "bfloat16_t" -> "bf16"; "int" -> "int32_t"; others unchanged.
std::string normaliseDtype(std::string_view spelled);
std::optional<int> dtypeBytes(std::string_view normalised);

}  // namespace portcheck::kernel

#pragma once
// Value-level vocabulary of the PyPTO DSL model: numbers, shapes, element types, memory spaces.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace portcheck::dsl {

// 1-based line and Unicode code-point column (SourceFile::position); byte = offset into the file.
struct Loc {
  int line = 0;
  int col = 0;
  std::uint32_t byte = 0;
};

// A compile-time number as Python would compute it, or Unknown. Never guessed: anything the
// evaluator cannot prove (names it cannot resolve, overflow, division by zero) stays Unknown.
struct Number {
  enum class Kind { Unknown, Int, Float };
  Kind kind = Kind::Unknown;
  std::int64_t i = 0;
  double f = 0;

  static Number ofInt(std::int64_t v) { return {Kind::Int, v, static_cast<double>(v)}; }
  static Number ofFloat(double v) { return {Kind::Float, 0, v}; }
  bool known() const { return kind != Kind::Unknown; }
  bool isInt() const { return kind == Kind::Int; }
  std::optional<std::int64_t> asInt() const { return isInt() ? std::optional<std::int64_t>(i) : std::nullopt; }
  double asDouble() const { return kind == Kind::Int ? static_cast<double>(i) : f; }
};

// One dimension: a static extent, or nullopt when dynamic or not resolvable.
using Dim = std::optional<std::int64_t>;

struct Shape {
  bool rank_known = false;  // false: even the number of dimensions is unknown
  std::vector<Dim> dims;

  static Shape unknown() { return {}; }
  static Shape of(std::vector<Dim> d) { return {true, std::move(d)}; }
  bool fullyStatic() const;
  std::optional<std::int64_t> elements() const;  // product of the dims when fully static
  std::string str() const;                       // "[64, 128]", "[?, 128]", "[?]" for unknown rank
  bool operator==(const Shape&) const = default;
};

// Element types of pypto.language (pl.FP32, ...).
enum class DType {
  Unknown, Bool, Int4, Int8, Int16, Int32, Int64, UInt4, UInt8, UInt16, UInt32, UInt64,
  FP4, FP8E4M3FN, FP8E5M2, FP8E8M0, HF4, HF8, FP16, BF16, FP32, Index, TaskId
};
std::string_view dtypeName(DType t);            // "FP32"; "?" for Unknown
DType dtypeFromName(std::string_view name);     // "FP32" -> FP32; Unknown when not a dtype
int dtypeBits(DType t);                         // element size in bits (FP32 32, INT4 4); 0 when unknown
bool dtypeIsFloat(DType t);

// On-chip (and GM) memory spaces of pl.MemorySpace / pl.Mem.
enum class MemSpace { Unknown, DDR, Vec, Mat, Left, Right, Acc, Bias, LeftScale, RightScale };
std::string_view memSpaceName(MemSpace s);      // "Vec"; "?" for Unknown
MemSpace memSpaceFromName(std::string_view name);

// What a value is in the DSL's type system.
enum class ValueKind { Unknown, Tensor, Tile, Scalar, Other };
std::string_view valueKindName(ValueKind k);

struct TypeInfo {
  ValueKind kind = ValueKind::Unknown;
  Shape shape;
  DType dtype = DType::Unknown;
  MemSpace space = MemSpace::Unknown;  // tiles: Vec unless placed elsewhere; tensors: DDR

  // shape elements x element size, when both are known (no alignment applied).
  std::optional<std::int64_t> bytes() const;
  // bytes of one innermost row (last dim x element size), when known.
  std::optional<std::int64_t> innermostBytes() const;
};

// Parameter direction (pl.Out[...] / pl.InOut[...]).
enum class Direction { In, Out, InOut };
std::string_view directionName(Direction d);

}  // namespace portcheck::dsl

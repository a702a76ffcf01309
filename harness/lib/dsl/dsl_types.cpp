#include "dsl/dsl_types.h"

#include <array>

namespace portcheck::dsl {

bool Shape::fullyStatic() const {
  if (!rank_known) return false;
  for (const Dim& d : dims)
    if (!d) return false;
  return true;
}

std::optional<std::int64_t> Shape::elements() const {
  if (!fullyStatic()) return std::nullopt;
  std::int64_t n = 1;
  for (const Dim& d : dims) {
    if (*d < 0 || __builtin_mul_overflow(n, *d, &n)) return std::nullopt;
  }
  return n;
}

std::string Shape::str() const {
  if (!rank_known) return "[?]";
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += dims[i] ? std::to_string(*dims[i]) : "?";
  }
  return s + "]";
}

namespace {
struct DTypeRow {
  DType t;
  std::string_view name;
  int bits;
  bool is_float;
};
constexpr std::array<DTypeRow, 22> kDTypes{{
    {DType::Bool, "BOOL", 8, false},       {DType::Int4, "INT4", 4, false},
    {DType::Int8, "INT8", 8, false},       {DType::Int16, "INT16", 16, false},
    {DType::Int32, "INT32", 32, false},    {DType::Int64, "INT64", 64, false},
    {DType::UInt4, "UINT4", 4, false},     {DType::UInt8, "UINT8", 8, false},
    {DType::UInt16, "UINT16", 16, false},  {DType::UInt32, "UINT32", 32, false},
    {DType::UInt64, "UINT64", 64, false},  {DType::FP4, "FP4", 4, true},
    {DType::FP8E4M3FN, "FP8E4M3FN", 8, true}, {DType::FP8E5M2, "FP8E5M2", 8, true},
    {DType::FP8E8M0, "FP8E8M0", 8, true},  {DType::HF4, "HF4", 4, true},
    {DType::HF8, "HF8", 8, true},          {DType::FP16, "FP16", 16, true},
    {DType::BF16, "BF16", 16, true},       {DType::FP32, "FP32", 32, true},
    {DType::Index, "INDEX", 64, false},    {DType::TaskId, "TASK_ID", 64, false},
}};
const DTypeRow* row(DType t) {
  for (const DTypeRow& r : kDTypes)
    if (r.t == t) return &r;
  return nullptr;
}
constexpr std::array<std::pair<MemSpace, std::string_view>, 9> kSpaces{{
    {MemSpace::DDR, "DDR"}, {MemSpace::Vec, "Vec"}, {MemSpace::Mat, "Mat"},
    {MemSpace::Left, "Left"}, {MemSpace::Right, "Right"}, {MemSpace::Acc, "Acc"},
    {MemSpace::Bias, "Bias"}, {MemSpace::LeftScale, "LeftScale"}, {MemSpace::RightScale, "RightScale"},
}};
}  // namespace

std::string_view dtypeName(DType t) {
  const DTypeRow* r = row(t);
  return r ? r->name : "?";
}

DType dtypeFromName(std::string_view name) {
  for (const DTypeRow& r : kDTypes)
    if (r.name == name) return r.t;
  return DType::Unknown;
}

int dtypeBits(DType t) {
  const DTypeRow* r = row(t);
  return r ? r->bits : 0;
}

bool dtypeIsFloat(DType t) {
  const DTypeRow* r = row(t);
  return r && r->is_float;
}

std::string_view memSpaceName(MemSpace s) {
  for (const auto& [sp, name] : kSpaces)
    if (sp == s) return name;
  return "?";
}

MemSpace memSpaceFromName(std::string_view name) {
  for (const auto& [sp, n] : kSpaces)
    if (n == name) return sp;
  return MemSpace::Unknown;
}

std::string_view valueKindName(ValueKind k) {
  switch (k) {
    case ValueKind::Tensor: return "tensor";
    case ValueKind::Tile: return "tile";
    case ValueKind::Scalar: return "scalar";
    case ValueKind::Other: return "other";
    case ValueKind::Unknown: break;
  }
  return "unknown";
}

std::optional<std::int64_t> TypeInfo::bytes() const {
  auto n = shape.elements();
  int bits = dtypeBits(dtype);
  if (!n || bits == 0) return std::nullopt;
  std::int64_t total;
  if (__builtin_mul_overflow(*n, static_cast<std::int64_t>(bits), &total)) return std::nullopt;
  return (total + 7) / 8;
}

std::optional<std::int64_t> TypeInfo::innermostBytes() const {
  int bits = dtypeBits(dtype);
  if (!shape.rank_known || shape.dims.empty() || !shape.dims.back() || bits == 0) return std::nullopt;
  return (*shape.dims.back() * bits + 7) / 8;
}

std::string_view directionName(Direction d) {
  switch (d) {
    case Direction::Out: return "Out";
    case Direction::InOut: return "InOut";
    case Direction::In: break;
  }
  return "In";
}

}  // namespace portcheck::dsl

#include "kernel/tile_type.h"

#include <array>

namespace portcheck::kernel {

namespace {
struct LocName { Loc loc; std::string_view name; };
constexpr std::array<LocName, 10> kLocs = {{{Loc::Vec, "Vec"}, {Loc::Mat, "Mat"}, {Loc::Left, "Left"},
                                            {Loc::Right, "Right"}, {Loc::Acc, "Acc"}, {Loc::Bias, "Bias"},
                                            {Loc::Scaling, "Scaling"}, {Loc::ScaleLeft, "ScaleLeft"},
                                            {Loc::ScaleRight, "ScaleRight"}, {Loc::Ctrl, "Ctrl"}}};
}  // namespace

std::string_view toString(Loc loc) {
  for (const LocName& l : kLocs)
    if (l.loc == loc) return l.name;
  return "unknown";
}

std::optional<Loc> parseLoc(std::string_view name) {
  if (auto p = name.rfind("::"); p != std::string_view::npos) name = name.substr(p + 2);
  for (const LocName& l : kLocs)
    if (l.name == name) return l.loc;
  return std::nullopt;
}

bool isCubeLoc(Loc loc) {
  return loc == Loc::Mat || loc == Loc::Left || loc == Loc::Right || loc == Loc::Acc || loc == Loc::Bias ||
         loc == Loc::Scaling || loc == Loc::ScaleLeft || loc == Loc::ScaleRight;
}

std::string normaliseDtype(std::string_view s) {
  if (auto p = s.rfind("::"); p != std::string_view::npos) s = s.substr(p + 2);
  if (s == "half" || s == "float16_t" || s == "__fp16" || s == "aclFloat16" || s == "_Float16") return "half";
  if (s == "bfloat16_t" || s == "bf16" || s == "bfloat16" || s == "__bf16") return "bf16";
  if (s == "float" || s == "float32_t") return "float";
  if (s == "int" || s == "int32_t") return "int32_t";
  if (s == "short" || s == "int16_t") return "int16_t";
  if (s == "unsigned" || s == "uint32_t") return "uint32_t";
  if (s == "char" || s == "signed char") return "int8_t";
  return std::string(s);
}

std::optional<int> dtypeBytes(std::string_view t) {
  if (t == "half" || t == "bf16" || t == "int16_t" || t == "uint16_t") return 2;
  if (t == "float" || t == "int32_t" || t == "uint32_t") return 4;
  if (t == "int8_t" || t == "uint8_t" || t == "float8_e4m3_t" || t == "float8_e5m2_t" || t == "hifloat8_t") return 1;
  if (t == "int64_t" || t == "uint64_t" || t == "double") return 8;
  return std::nullopt;
}

std::optional<int> TileType::elementBytes() const { return dtypeBytes(dtype); }

std::optional<std::int64_t> TileType::bytes() const {
  auto e = elementBytes();
  if (!e || !rows || !cols) return std::nullopt;
  return *rows * *cols * *e;
}

}  // namespace portcheck::kernel

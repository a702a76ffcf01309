#include "kernel/instruction_set.h"

#include <algorithm>
#include <array>
#include <set>

namespace portcheck::kernel {

namespace {

// Generated from the catalogue table of the shared reference (§3): name, kind, min-max arity, header line.
constexpr Instruction kInstructions[] = {
    {"MGATHER", OpKind::Gather, 3, 4, 2150},
    {"MSCATTER", OpKind::Scatter, 3, 3, 2201},
    {"SETFMATRIX", OpKind::Other, 1, 1, 1001},
    {"SET_IMG2COL_PADDING", OpKind::Other, 1, 1, 1034},
    {"SET_IMG2COL_RPT", OpKind::Other, 1, 1, 1026},
    {"SET_QUANT_SCALAR", OpKind::Other, 1, 1, 1009},
    {"SET_QUANT_VECTOR", OpKind::Other, 1, 1, 1017},
    {"SYNCALL", OpKind::Sync, 0, 2, 119},
    {"TABS", OpKind::Vector, 2, 2, 211},
    {"TADD", OpKind::Vector, 3, 3, 179},
    {"TADDC", OpKind::Vector, 4, 4, 554},
    {"TADDDEQRELU", OpKind::Vector, 5, 5, 2355},
    {"TADDRELUCONV", OpKind::Vector, 3, 3, 203},
    {"TADDS", OpKind::Vector, 3, 3, 1959},
    {"TADDSC", OpKind::Vector, 4, 4, 2098},
    {"TALLOC", OpKind::Pipe, 2, 2, 2456},
    {"TAND", OpKind::Vector, 3, 3, 219},
    {"TANDS", OpKind::Vector, 3, 3, 2045},
    {"TASSIGN", OpKind::Assign, 1, 2, 94},
    {"TAXPY", OpKind::Vector, 3, 3, 1968},
    {"TCI", OpKind::Vector, 2, 3, 1229},
    {"TCMP", OpKind::Vector, 4, 4, 340},
    {"TCMPS", OpKind::Vector, 4, 4, 320},
    {"TCOLARGMAX", OpKind::Vector, 3, 4, 1598},
    {"TCOLARGMIN", OpKind::Vector, 3, 4, 1606},
    {"TCOLEXPAND", OpKind::Vector, 2, 2, 2142},
    {"TCOLEXPANDADD", OpKind::Vector, 3, 3, 2305},
    {"TCOLEXPANDDIV", OpKind::Vector, 3, 3, 2289},
    {"TCOLEXPANDEXPDIF", OpKind::Vector, 3, 3, 2337},
    {"TCOLEXPANDMAX", OpKind::Vector, 3, 3, 2313},
    {"TCOLEXPANDMIN", OpKind::Vector, 3, 3, 2321},
    {"TCOLEXPANDMUL", OpKind::Vector, 3, 3, 2297},
    {"TCOLEXPANDSUB", OpKind::Vector, 3, 3, 2329},
    {"TCOLMAX", OpKind::Vector, 2, 2, 1590},
    {"TCOLMIN", OpKind::Vector, 2, 2, 2116},
    {"TCOLPROD", OpKind::Vector, 2, 2, 1582},
    {"TCOLSUM", OpKind::Vector, 2, 4, 1566},
    {"TCONCAT", OpKind::Vector, 3, 6, 351},
    {"TCVT", OpKind::Vector, 3, 5, 1361},
    {"TDEINTERLEAVE", OpKind::Vector, 3, 4, 2582},
    {"TDEQUANT", OpKind::Vector, 4, 4, 2345},
    {"TDIV", OpKind::Vector, 3, 3, 473},
    {"TDIVS", OpKind::Vector, 3, 3, 1987},
    {"TEXP", OpKind::Vector, 2, 2, 1906},
    {"TEXPANDS", OpKind::VecOrMat, 2, 2, 276},
    {"TEXTRACT", OpKind::Move, 2, 7, 897},
    {"TEXTRACT_FP", OpKind::Move, 5, 5, 955},
    {"TFILLPAD", OpKind::VecOrMat, 2, 2, 1152},
    {"TFILLPAD_EXPAND", OpKind::VecOrMat, 2, 2, 1186},
    {"TFILLPAD_INPLACE", OpKind::VecOrMat, 2, 2, 1180},
    {"TFMOD", OpKind::Vector, 3, 3, 2377},
    {"TFMODS", OpKind::Vector, 3, 3, 2016},
    {"TFREE", OpKind::Pipe, 1, 2, 2445},
    {"TFUSEDMULADD", OpKind::Vector, 3, 3, 1319},
    {"TFUSEDMULADDRELU", OpKind::Vector, 3, 3, 1343},
    {"TGATHER", OpKind::Vector, 2, 6, 1207},
    {"TGATHERB", OpKind::Vector, 3, 3, 1951},
    {"TGEMV", OpKind::Matmul, 3, 3, 795},
    {"TGEMV_ACC", OpKind::Matmul, 4, 4, 811},
    {"TGEMV_BIAS", OpKind::Matmul, 4, 4, 829},
    {"TGEMV_MX", OpKind::Matmul, 5, 6, 573},
    {"TGET_SCALE_ADDR", OpKind::Other, 2, 2, 2623},
    {"THISTOGRAM", OpKind::Vector, 3, 3, 2512},
    {"TIMG2COL", OpKind::Other, 2, 4, 992},
    {"TINSERT", OpKind::Move, 2, 5, 1060},
    {"TINSERT_FP", OpKind::Move, 5, 5, 1116},
    {"TINTERLEAVE", OpKind::Vector, 4, 4, 2573},
    {"TLOAD", OpKind::Load, 2, 2, 284},
    {"TLOG", OpKind::Vector, 2, 2, 524},
    {"TLRELU", OpKind::Vector, 3, 3, 2089},
    {"TMATMUL", OpKind::Matmul, 3, 3, 729},
    {"TMATMUL_ACC", OpKind::Matmul, 3, 4, 746},
    {"TMATMUL_BIAS", OpKind::Matmul, 4, 4, 775},
    {"TMATMUL_MX", OpKind::Matmul, 5, 6, 647},
    {"TMAX", OpKind::Vector, 3, 3, 268},
    {"TMAXS", OpKind::Vector, 3, 3, 2036},
    {"TMIN", OpKind::Vector, 3, 3, 260},
    {"TMINS", OpKind::Vector, 3, 3, 1730},
    {"TMOV", OpKind::Move, 2, 3, 1394},
    {"TMOV_FP", OpKind::Move, 3, 3, 1473},
    {"TMRGSORT", OpKind::Vector, 3, 7, 850},
    {"TMUL", OpKind::Vector, 3, 3, 252},
    {"TMULADDDST", OpKind::Vector, 3, 3, 1327},
    {"TMULS", OpKind::Vector, 3, 3, 1996},
    {"TNEG", OpKind::Vector, 2, 2, 2279},
    {"TNOT", OpKind::Vector, 2, 2, 1935},
    {"TOR", OpKind::Vector, 3, 3, 227},
    {"TORS", OpKind::Vector, 3, 3, 2054},
    {"TPAIRREDUCESUM", OpKind::Vector, 2, 2, 187},
    {"TPARTADD", OpKind::Vector, 3, 3, 1263},
    {"TPARTARGMAX", OpKind::Vector, 6, 6, 1297},
    {"TPARTARGMIN", OpKind::Vector, 6, 6, 1309},
    {"TPARTMAX", OpKind::Vector, 3, 3, 1279},
    {"TPARTMIN", OpKind::Vector, 3, 3, 1287},
    {"TPARTMUL", OpKind::Vector, 3, 3, 1271},
    {"TPOP", OpKind::Pipe, 2, 3, 2415},
    {"TPOW", OpKind::Vector, 4, 4, 1916},
    {"TPOWS", OpKind::Vector, 4, 4, 1926},
    {"TPREFETCH", OpKind::Load, 2, 2, 292},
    {"TPREFETCH_ASYNC", OpKind::Other, 2, 2, 309},
    {"TPRELU", OpKind::Vector, 4, 4, 545},
    {"TPRINT", OpKind::Other, 1, 2, 166},
    {"TPUSH", OpKind::Pipe, 2, 3, 2388},
    {"TQUANT", OpKind::Vector, 3, 6, 2522},
    {"TRANDOM", OpKind::Vector, 3, 3, 720},
    {"TRECIP", OpKind::Vector, 2, 2, 533},
    {"TRELU", OpKind::Vector, 2, 2, 1943},
    {"TREM", OpKind::Vector, 4, 4, 2366},
    {"TREMS", OpKind::Vector, 4, 4, 2027},
    {"TRESHAPE", OpKind::Alias, 2, 2, 1665},
    {"TROWARGMAX", OpKind::Vector, 3, 4, 1646},
    {"TROWARGMIN", OpKind::Vector, 3, 4, 1683},
    {"TROWEXPAND", OpKind::Vector, 2, 2, 1739},
    {"TROWEXPANDADD", OpKind::Vector, 3, 4, 1804},
    {"TROWEXPANDDIV", OpKind::Vector, 3, 4, 1749},
    {"TROWEXPANDEXPDIF", OpKind::Vector, 3, 4, 1858},
    {"TROWEXPANDMAX", OpKind::Vector, 3, 4, 1822},
    {"TROWEXPANDMIN", OpKind::Vector, 3, 4, 1840},
    {"TROWEXPANDMUL", OpKind::Vector, 3, 4, 1768},
    {"TROWEXPANDSUB", OpKind::Vector, 3, 4, 1786},
    {"TROWMAX", OpKind::Vector, 3, 3, 1636},
    {"TROWMIN", OpKind::Vector, 3, 3, 1673},
    {"TROWPROD", OpKind::Vector, 3, 3, 1558},
    {"TROWSUM", OpKind::Vector, 3, 3, 1550},
    {"TRSQRT", OpKind::Vector, 2, 3, 1878},
    {"TSCATTER", OpKind::Vector, 2, 3, 2124},
    {"TSEL", OpKind::Vector, 5, 5, 1713},
    {"TSELS", OpKind::Vector, 5, 5, 1703},
    {"TSHL", OpKind::Vector, 3, 3, 481},
    {"TSHLS", OpKind::Vector, 3, 3, 2062},
    {"TSHR", OpKind::Vector, 3, 3, 489},
    {"TSHRS", OpKind::Vector, 3, 3, 2071},
    {"TSORT32", OpKind::Vector, 3, 4, 1193},
    {"TSQRT", OpKind::Vector, 2, 2, 1897},
    {"TSTORE", OpKind::Store, 2, 3, 385},
    {"TSTORE_FP", OpKind::StoreFp, 3, 3, 462},
    {"TSUB", OpKind::Vector, 3, 3, 235},
    {"TSUBC", OpKind::Vector, 4, 4, 562},
    {"TSUBRELU", OpKind::Vector, 3, 3, 1335},
    {"TSUBRELUCONV", OpKind::Vector, 3, 3, 195},
    {"TSUBS", OpKind::Vector, 3, 3, 1977},
    {"TSUBSC", OpKind::Vector, 4, 4, 2107},
    {"TSUBVIEW", OpKind::Alias, 4, 4, 243},
    {"TSYNC", OpKind::Sync, 0, 255, 113},
    {"TTRANS", OpKind::Vector, 3, 3, 1722},
    {"TTRI", OpKind::Vector, 2, 2, 1245},
    {"TXOR", OpKind::Vector, 4, 4, 514},
    {"TXORS", OpKind::Vector, 4, 4, 2080},
};

bool in(Loc l, std::initializer_list<Loc> set) { return std::find(set.begin(), set.end(), l) != set.end(); }

std::string locName(Loc l) { return std::string(toString(l)); }

std::string operandProblem(const Instruction& ins, std::size_t i, Loc got, std::string_view wanted) {
  return std::string(ins.name) + " operand " + std::to_string(i + 1) + " is a " + locName(got) + " tile; " +
         std::string(ins.name) + " takes " + std::string(wanted) + " there";
}

struct MovePair { Loc dst, src; bool a5_only; };

// TMOV pairs (docs/isa/TMOV.md): A2A3 Mat->Left/Right/Bias/Scaling, Vec->Vec, Acc->Mat; A5 adds Acc->Vec,
// Vec->Mat, Mat->ScaleLeft/ScaleRight.
constexpr MovePair kMovePairs[] = {
    {Loc::Left, Loc::Mat, false},  {Loc::Right, Loc::Mat, false},     {Loc::Bias, Loc::Mat, false},
    {Loc::Scaling, Loc::Mat, false}, {Loc::Vec, Loc::Vec, false},     {Loc::Mat, Loc::Acc, false},
    {Loc::Vec, Loc::Acc, true},    {Loc::Mat, Loc::Vec, true},        {Loc::ScaleLeft, Loc::Mat, true},
    {Loc::ScaleRight, Loc::Mat, true}};
// TEXTRACT: Mat->Left/Right(/Scale*), Acc->Mat, Vec->Vec; A5 Acc->Vec, Vec->Mat.
constexpr MovePair kExtractPairs[] = {
    {Loc::Left, Loc::Mat, false}, {Loc::Right, Loc::Mat, false}, {Loc::Mat, Loc::Acc, false},
    {Loc::Vec, Loc::Vec, false},  {Loc::Vec, Loc::Acc, true},    {Loc::Mat, Loc::Vec, true},
    {Loc::ScaleLeft, Loc::Mat, true}, {Loc::ScaleRight, Loc::Mat, true}};
// TINSERT: Acc->Mat, Vec->Vec (the catalogue lists Vec->Vec for A5 only, but pto-isa's a2a3 implementation
// handles it: include/pto/npu/a2a3/TInsert.hpp:164); A5 adds Acc->Vec, Vec->Mat.
constexpr MovePair kInsertPairs[] = {
    {Loc::Mat, Loc::Acc, false}, {Loc::Vec, Loc::Acc, true}, {Loc::Vec, Loc::Vec, false}, {Loc::Mat, Loc::Vec, true}};
// *_FP forms quantize out of the accumulator.
constexpr MovePair kFpPairs[] = {{Loc::Vec, Loc::Acc, false}, {Loc::Mat, Loc::Acc, false}};

template <std::size_t N>
bool pairAllowed(const MovePair (&pairs)[N], Loc dst, Loc src, Platform p) {
  for (const MovePair& m : pairs)
    if (m.dst == dst && m.src == src && (!m.a5_only || p == Platform::A5)) return true;
  return false;
}

// Operand roles of the matmul family by name and arity; empty = not checked (MX forms).
std::vector<Loc> matmulRoles(std::string_view name, std::size_t arity) {
  bool acc = name.ends_with("_ACC"), bias = name.ends_with("_BIAS");
  if (name.find("_MX") != std::string_view::npos) return {};
  if (acc && arity == 4) return {Loc::Acc, Loc::Acc, Loc::Left, Loc::Right};
  if (bias && arity == 4) return {Loc::Acc, Loc::Left, Loc::Right, Loc::Bias};
  if (arity == 3) return {Loc::Acc, Loc::Left, Loc::Right};
  return {};
}

}  // namespace

const Instruction* findInstruction(std::string_view name) {
  for (const Instruction& i : kInstructions)
    if (i.name == name) return &i;
  return nullptr;
}

Core coreOf(const Instruction& ins, const std::vector<Loc>& locs) {
  bool cube = false, vec = false;
  for (Loc l : locs) {
    if (isCubeLoc(l)) cube = true;
    if (l == Loc::Vec) vec = true;
  }
  switch (ins.kind) {
    case OpKind::Matmul: return Core::Cube;
    case OpKind::Vector: return Core::Vector;
    case OpKind::Pipe: case OpKind::Sync: case OpKind::Assign: case OpKind::Other: return Core::Any;
    default:
      // A move touching Mat/Left/Right/Acc runs on the cube side (MTE1/FIX pipes).
      if (cube) return Core::Cube;
      return vec ? Core::Vector : Core::Any;
  }
}

std::optional<std::string> locationProblem(const Instruction& ins, const std::vector<Loc>& locs, Platform p) {
  auto at = [&](std::size_t i) { return i < locs.size() ? locs[i] : Loc::Unknown; };
  switch (ins.kind) {
    case OpKind::Vector:
      for (std::size_t i = 0; i < locs.size(); ++i)
        if (locs[i] != Loc::Unknown && locs[i] != Loc::Vec) return operandProblem(ins, i, locs[i], "a Vec tile");
      return std::nullopt;
    case OpKind::VecOrMat:
      for (std::size_t i = 0; i < locs.size(); ++i)
        if (locs[i] != Loc::Unknown && !in(locs[i], {Loc::Vec, Loc::Mat}))
          return operandProblem(ins, i, locs[i], "a Vec or Mat tile");
      return std::nullopt;
    case OpKind::Load:
    case OpKind::Gather:
      if (at(0) != Loc::Unknown && !in(at(0), {Loc::Vec, Loc::Mat}))
        return operandProblem(ins, 0, at(0), "a Vec or Mat tile (GM loads into UB or L1)");
      return std::nullopt;
    case OpKind::Store:
      if (at(1) == Loc::Unknown) return std::nullopt;
      if (p == Platform::A5 && !in(at(1), {Loc::Vec, Loc::Acc}))
        return operandProblem(ins, 1, at(1), "a Vec or Acc tile on a5 (no Mat store)");
      if (!in(at(1), {Loc::Vec, Loc::Mat, Loc::Acc})) return operandProblem(ins, 1, at(1), "a Vec, Mat or Acc tile");
      return std::nullopt;
    case OpKind::StoreFp:
      if (at(1) != Loc::Unknown && at(1) != Loc::Acc) return operandProblem(ins, 1, at(1), "an Acc tile");
      if (at(2) != Loc::Unknown && at(2) != Loc::Scaling) return operandProblem(ins, 2, at(2), "a Scaling tile");
      return std::nullopt;
    case OpKind::Scatter:
      if (at(1) != Loc::Unknown && at(1) != Loc::Vec) return operandProblem(ins, 1, at(1), "a Vec tile");
      return std::nullopt;
    case OpKind::Matmul: {
      std::vector<Loc> roles = matmulRoles(ins.name, locs.size());
      for (std::size_t i = 0; i < roles.size() && i < locs.size(); ++i)
        if (locs[i] != Loc::Unknown && locs[i] != roles[i])
          return operandProblem(ins, i, locs[i], "an " + locName(roles[i]) + " tile");
      return std::nullopt;
    }
    case OpKind::Move: {
      if (locs.size() < 2 || locs.size() >= 6) return std::nullopt;  // the two-destination TEXTRACT form
      Loc dst = at(0), src = at(1);
      if (dst == Loc::Unknown || src == Loc::Unknown) return std::nullopt;
      if (p == Platform::A2A3 && dst == Loc::Vec && src == Loc::Acc) return std::nullopt;  // AUTO015
      bool ok = ins.name.ends_with("_FP") ? pairAllowed(kFpPairs, dst, src, p)
                : ins.name == "TEXTRACT"  ? pairAllowed(kExtractPairs, dst, src, p)
                : ins.name == "TINSERT"   ? pairAllowed(kInsertPairs, dst, src, p)
                                          : pairAllowed(kMovePairs, dst, src, p);
      if (ok) return std::nullopt;
      return std::string(ins.name) + " from a " + locName(src) + " tile into a " + locName(dst) + " tile is not a move " +
             std::string(toString(p)) + " supports";
    }
    case OpKind::Alias:
      if (at(0) != Loc::Unknown && at(1) != Loc::Unknown && at(0) != at(1))
        return std::string(ins.name) + " between a " + locName(at(0)) + " and a " + locName(at(1)) +
               " tile; both sides must be in the same buffer";
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

bool acceptsGlobalAt(const Instruction& ins, std::size_t index, std::size_t arity) {
  (void)arity;
  switch (ins.kind) {
    case OpKind::Load: case OpKind::Gather: return index == 1;
    case OpKind::Store: case OpKind::StoreFp: case OpKind::Scatter: return index == 0;
    case OpKind::Assign: case OpKind::Pipe: case OpKind::Sync: return true;
    default: return ins.name == "TPREFETCH_ASYNC" || ins.name == "TPRINT";
  }
}

std::optional<std::string> dtypeProblem(const Instruction& ins, const std::vector<Loc>& locs,
                                        const std::vector<std::string>& dtypes, Platform p) {
  if (p != Platform::A2A3) return std::nullopt;  // A5 accepts the wider sets (bf16, 8/64-bit integers)
  // A2A3 sets: docs/isa/TADD.md, include/pto/npu/a2a3/TAdd.hpp:57-66 (TADD/TMUL/TMAX/TMIN/TMULS); TDIV and
  // TEXP/TLOG/TSQRT take half and float only.
  static const std::set<std::string> kBasic = {"int32_t", "int16_t", "half", "float"};
  static const std::set<std::string> kFloat = {"half", "float"};
  const std::set<std::string>* allowed = nullptr;
  std::string_view n = ins.name;
  if (n == "TADD" || n == "TMUL" || n == "TMAX" || n == "TMIN" || n == "TMULS") allowed = &kBasic;
  else if (n == "TDIV" || n == "TEXP" || n == "TLOG" || n == "TSQRT") allowed = &kFloat;
  if (allowed) {
    for (const std::string& d : dtypes)
      if (!d.empty() && dtypeBytes(d) && !allowed->count(d))
        return std::string(n) + " on " + d + " tiles is not supported on a2a3 (it takes " +
               (allowed == &kBasic ? "int32_t, int16_t, half or float" : "half or float") + ")";
    return std::nullopt;
  }
  if (ins.kind == OpKind::Matmul) {
    std::string c, a, b;
    for (std::size_t i = 0; i < locs.size() && i < dtypes.size(); ++i) {
      if (locs[i] == Loc::Acc && c.empty()) c = dtypes[i];
      if (locs[i] == Loc::Left) a = dtypes[i];
      if (locs[i] == Loc::Right) b = dtypes[i];
    }
    if (c.empty() || a.empty() || b.empty() || !dtypeBytes(c) || !dtypeBytes(a) || !dtypeBytes(b)) return std::nullopt;
    // A2A3 (C, A, B) triples, docs/isa/TMATMUL.md.
    static const std::set<std::array<std::string, 3>> kTriples = {
        {"int32_t", "int8_t", "int8_t"}, {"float", "half", "half"}, {"float", "float", "float"}, {"float", "bf16", "bf16"}};
    if (!kTriples.count({c, a, b}))
      return std::string(n) + " with " + c + " = " + a + " x " + b +
             " is not supported on a2a3 (int32=int8xint8, float=halfxhalf, float=floatxfloat, float=bf16xbf16)";
  }
  return std::nullopt;
}

}  // namespace portcheck::kernel

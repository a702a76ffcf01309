#include "dsl/type_rules.h"

#include <string_view>
#include <unordered_set>

#include "dsl/pl_names.h"

namespace portcheck::dsl {

namespace {

using std::string_view;

const TypeInfo* argType(const OpArgs& a, int e) {
  const Value* v = a.fn.valueOf(e);
  return v ? &v->type : nullptr;
}

bool isData(const TypeInfo* t) { return t && (t->kind == ValueKind::Tensor || t->kind == ValueKind::Tile); }

// Shape with its last axis reduced to 1 (row_*) or its first axis (col_*).
Shape reduced(const Shape& s, bool rows) {
  if (!s.rank_known || s.dims.empty()) return {};
  Shape r = s;
  if (rows) r.dims.back() = 1;
  else r.dims.front() = 1;
  return r;
}

const std::unordered_set<string_view>& elementwise() {
  static const std::unordered_set<string_view> k = {
      "add", "sub", "mul", "div", "adds", "subs", "muls", "divs", "maximum", "minimum", "maximums", "minimums",
      "fmod", "fmods", "rem", "rems", "and_", "ands", "or_", "ors", "xor", "xors", "shl", "shls", "shr", "shrs",
      "part_add", "part_mul", "part_max", "part_min", "neg", "exp", "sin", "cos", "sqrt", "rsqrt", "recip", "log",
      "abs", "relu", "not_", "lrelu", "prelu", "addc", "subc", "addsc", "subsc", "fillpad", "fillpad_inplace",
      "expands", "row_expand", "row_expand_add", "row_expand_sub", "row_expand_mul", "row_expand_div",
      "row_expand_max", "row_expand_min", "row_expand_expdif", "col_expand", "col_expand_add", "col_expand_sub",
      "col_expand_mul", "col_expand_div", "col_expand_max", "col_expand_min", "col_expand_expdif", "sel", "sels",
      "scatter_update", "set_validshape", "no_dep", "dump_tag", "expand_clone", "scatter",
      "scatter_mask"};
  return k;
}

}  // namespace

TypeInfo compareMaskType(const TypeInfo& compared) {
  TypeInfo r = compared;
  r.dtype = DType::UInt8;
  if (r.shape.rank_known && !r.shape.dims.empty() && r.shape.dims.back())
    r.shape.dims.back() = ((*r.shape.dims.back() + 7) / 8 + 31) / 32 * 32;
  else
    r.shape = {};
  return r;
}

std::optional<TypeInfo> inferPlCall(const OpArgs& a) {
  string_view name = a.call.pl_name;
  const PlName* entry = findPlName(name);
  if (!entry || !isOperation(entry->kind)) return std::nullopt;
  ValueKind forced = ValueKind::Unknown;
  if (name.rfind("tile.", 0) == 0) {
    forced = ValueKind::Tile;
    name.remove_prefix(5);
  } else if (name.rfind("tensor.", 0) == 0) {
    forced = ValueKind::Tensor;
    name.remove_prefix(7);
  } else if (name.rfind("system.", 0) == 0) {
    name.remove_prefix(7);
  } else if (entry->kind == PlNameKind::TileOp) {
    forced = ValueKind::Tile;
  } else if (entry->kind == PlNameKind::TensorOp) {
    forced = ValueKind::Tensor;
  }
  auto arg = [&](std::size_t pos, string_view kw) { return a.fn.arg(a.call, pos, kw); };
  auto first = [&]() { return arg(0, ""); };

  TypeInfo t;
  // The kind of a unified op follows its first tensor / tile operand.
  ValueKind operand_kind = ValueKind::Unknown;
  for (int e : a.call.args) {
    const TypeInfo* at = argType(a, e);
    if (isData(at)) {
      operand_kind = at->kind;
      break;
    }
  }
  t.kind = forced != ValueKind::Unknown ? forced : operand_kind;
  auto finish = [&](TypeInfo r) {
    if (r.kind == ValueKind::Tile && r.space == MemSpace::Unknown) r.space = MemSpace::Vec;
    if (r.kind == ValueKind::Tensor && r.space == MemSpace::Unknown) r.space = MemSpace::DDR;
    return r;
  };
  auto copyOf = [&](int e) {
    TypeInfo r = t;
    if (const TypeInfo* src = argType(a, e); isData(src)) {
      r.shape = src->shape;
      r.dtype = src->dtype;
      if (r.kind == ValueKind::Unknown) r.kind = src->kind;
    }
    return r;
  };

  // Scalars and effects
  static const std::unordered_set<string_view> kScalar = {
      "read", "dim", "get_block_idx", "get_block_num", "get_subblock_idx", "max", "min", "get_element",
      "available_cluster_count", "available_aiv_count", "reserve_buffer", "import_peer_buffer", "task_invalid",
      "task_dummy", "const"};
  if (kScalar.count(name)) {
    TypeInfo s;
    s.kind = ValueKind::Scalar;
    return s;
  }
  if (entry->kind == PlNameKind::SystemOp && name != "tpop_from_aic" && name != "tpop_from_aiv") {
    TypeInfo o;
    o.kind = ValueKind::Other;
    return o;
  }

  if (name == "load") {
    TypeInfo r;
    r.kind = ValueKind::Tile;
    r.shape = a.shape_of(arg(2, "shapes"));
    if (const TypeInfo* src = argType(a, arg(0, "tensor"))) r.dtype = src->dtype;
    int tm = arg(4, "target_memory");
    r.space = tm >= 0 ? a.space_of(tm) : MemSpace::Vec;
    return finish(r);
  }
  if (name == "store" || name == "mscatter") {
    int out = arg(2, "output_tensor");
    TypeInfo r;
    if (const TypeInfo* o = argType(a, out)) r = *o;
    r.kind = ValueKind::Tensor;
    r.space = MemSpace::DDR;
    return r;
  }
  if (name == "move") {
    TypeInfo r = copyOf(first());
    r.kind = ValueKind::Tile;
    int tm = arg(1, "target_memory");
    r.space = tm >= 0 ? a.space_of(tm) : MemSpace::Vec;
    return finish(r);
  }
  if (name == "create_tile" || (name == "create" && forced == ValueKind::Tile)) {
    TypeInfo r;
    r.kind = ValueKind::Tile;
    r.shape = a.shape_of(arg(0, "shape"));
    r.dtype = a.dtype_of(arg(1, "dtype"));
    int tm = arg(2, "target_memory");
    r.space = tm >= 0 ? a.space_of(tm) : MemSpace::Vec;
    return finish(r);
  }
  // pl.create_l1(shape, dtype): a tensor-typed value that lowers to a Mat tile (the on-chip operand
  // a kernel fills row by row with pl.gather_row from a GM pool; tensor_ops.py create_l1).
  if (name == "create_l1") {
    TypeInfo r;
    r.kind = ValueKind::Tile;
    r.shape = a.shape_of(arg(0, "shape"));
    r.dtype = a.dtype_of(arg(1, "dtype"));
    r.space = MemSpace::Mat;
    return finish(r);
  }
  if (name == "create_tensor" || name == "create") {
    TypeInfo r;
    r.kind = ValueKind::Tensor;
    r.shape = a.shape_of(arg(0, "shape"));
    r.dtype = a.dtype_of(arg(1, "dtype"));
    r.space = MemSpace::DDR;
    return r;
  }
  if (name == "full") {
    TypeInfo r;
    r.kind = forced == ValueKind::Tile ? ValueKind::Tile : ValueKind::Tensor;
    r.shape = a.shape_of(arg(0, "shape"));
    r.dtype = a.dtype_of(arg(1, "dtype"));
    return finish(r);
  }
  if (name == "ci" || name == "arange" || name == "tri" || name == "random") {
    TypeInfo r;
    r.kind = forced == ValueKind::Tile ? ValueKind::Tile : ValueKind::Tensor;
    r.shape = a.shape_of(arg(name == "random" ? 6 : 1, "shape"));
    int dt = arg(name == "random" ? 8 : (name == "tri" ? 3 : 2), "dtype");
    r.dtype = dt >= 0 ? a.dtype_of(dt) : (name == "random" ? DType::UInt32 : DType::Int32);
    return finish(r);
  }
  if (name == "slice") {
    TypeInfo r = copyOf(first());
    r.shape = a.shape_of(arg(1, "shape"));
    if (const TypeInfo* src = argType(a, first()); src && r.kind == ValueKind::Tile) r.space = src->space;
    return finish(r);
  }
  if (name == "reshape") {
    TypeInfo r = copyOf(first());
    r.shape = a.shape_of(arg(1, "shape"));
    if (const TypeInfo* src = argType(a, first()); src && r.kind == ValueKind::Tile) r.space = src->space;
    return finish(r);
  }
  if (name == "transpose" || name == "transpose_view") {
    TypeInfo r = copyOf(first());
    int a1 = arg(1, "axis1"), a2 = arg(2, "axis2");
    if (name == "transpose_view" && r.shape.rank_known && r.shape.dims.size() == 2) {
      std::swap(r.shape.dims[0], r.shape.dims[1]);
    } else if (a1 >= 0 && a2 >= 0 && a.fn.exprs[static_cast<std::size_t>(a1)].number.isInt() &&
               a.fn.exprs[static_cast<std::size_t>(a2)].number.isInt() && r.shape.rank_known) {
      std::int64_t i = a.fn.exprs[static_cast<std::size_t>(a1)].number.i;
      std::int64_t j = a.fn.exprs[static_cast<std::size_t>(a2)].number.i;
      auto n = static_cast<std::int64_t>(r.shape.dims.size());
      if (i < 0) i += n;
      if (j < 0) j += n;
      if (i >= 0 && j >= 0 && i < n && j < n) std::swap(r.shape.dims[static_cast<std::size_t>(i)], r.shape.dims[static_cast<std::size_t>(j)]);
      else r.shape = {};
    } else {
      r.shape = {};
    }
    return finish(r);
  }
  if (name == "reinterpret_view") {
    TypeInfo r = copyOf(first());
    r.dtype = a.dtype_of(arg(1, "dtype"));
    int sh = arg(99, "shape");
    if (sh >= 0) r.shape = a.shape_of(sh);
    else r.shape = {};
    return finish(r);
  }
  if (name == "cast") {
    TypeInfo r = copyOf(first());
    r.dtype = a.dtype_of(arg(1, "target_type"));
    return finish(r);
  }
  if (name == "row_max" || name == "row_sum" || name == "row_min" || name == "row_prod" || name == "row_argmax" ||
      name == "row_argmin" || name == "col_sum" || name == "col_max" || name == "col_min" || name == "col_prod" ||
      name == "col_argmax" || name == "col_argmin") {
    TypeInfo r = copyOf(first());
    r.shape = reduced(r.shape, name.rfind("row_", 0) == 0);
    if (name.find("arg") != string_view::npos) r.dtype = DType::Int32;
    return finish(r);
  }
  if (name == "matmul" || name == "matmul_bias" || name == "gemv" || name == "gemv_bias" || name == "batch_matmul" ||
      name == "matmul_mx" || name == "matmul_mx_bias") {
    bool mx = name.rfind("matmul_mx", 0) == 0;
    int lhs = arg(0, "lhs"), rhs = arg(mx ? 2 : 1, "rhs");
    const TypeInfo* l = argType(a, lhs);
    const TypeInfo* r = argType(a, rhs);
    TypeInfo out;
    out.kind = t.kind;
    if (l && r && l->shape.rank_known && r->shape.rank_known && l->shape.dims.size() >= 2 && r->shape.dims.size() >= 2) {
      std::size_t ln = l->shape.dims.size(), rn = r->shape.dims.size();
      bool a_trans = false, b_trans = false;
      for (const auto& [k, v] : a.call.kwargs) {
        const Expr& ve = a.fn.exprs[static_cast<std::size_t>(v)];
        bool yes = ve.kind == ExprKind::Bool && ve.number.isInt() && ve.number.i == 1;
        if (k == "a_trans") a_trans = yes;
        if (k == "b_trans") b_trans = yes;
      }
      Dim m = a_trans ? l->shape.dims[ln - 1] : l->shape.dims[ln - 2];
      Dim n = b_trans ? r->shape.dims[rn - 2] : r->shape.dims[rn - 1];
      out.shape.rank_known = true;
      out.shape.dims.assign(l->shape.dims.begin(), l->shape.dims.end() - 2);
      out.shape.dims.push_back(m);
      out.shape.dims.push_back(n);
    }
    int od = arg(99, "out_dtype");
    if (od >= 0) out.dtype = a.dtype_of(od);
    else if (l && r && l->dtype != DType::Unknown && r->dtype != DType::Unknown)
      out.dtype = dtypeIsFloat(l->dtype) && dtypeIsFloat(r->dtype) ? DType::FP32 : DType::Int32;
    if (out.kind == ValueKind::Tile) out.space = MemSpace::Acc;
    return finish(out);
  }
  if (name == "matmul_acc" || name == "gemv_acc" || name == "matmul_mx_acc" || name == "batch_matmul_acc") {
    TypeInfo r = copyOf(arg(0, "acc"));
    if (r.kind == ValueKind::Tile) r.space = MemSpace::Acc;
    return finish(r);
  }
  if (name == "assemble" || name == "gather_row") {
    TypeInfo r = copyOf(arg(0, name == "assemble" ? "target" : "dst"));
    if (const TypeInfo* src = argType(a, arg(0, name == "assemble" ? "target" : "dst")); src) {
      r.kind = src->kind;
      r.space = src->space;
    }
    return finish(r);
  }
  if (name == "extract") {
    TypeInfo r = copyOf(first());
    r.kind = ValueKind::Tile;
    r.shape = a.shape_of(arg(3, "shape"));
    int tm = arg(99, "target_memory");
    r.space = tm >= 0 ? a.space_of(tm) : MemSpace::Unknown;
    return finish(r);
  }
  if (name == "tpop_from_aic" || name == "tpop_from_aiv") {
    TypeInfo r;
    r.kind = ValueKind::Tile;
    int sh = arg(99, "shape");
    if (sh >= 0) r.shape = a.shape_of(sh);
    int dt = arg(99, "dtype");
    if (dt >= 0) r.dtype = a.dtype_of(dt);
    r.space = name == "tpop_from_aic" ? MemSpace::Vec : MemSpace::Unknown;
    return r;
  }
  if (name == "mgather" || name == "gatherb" || name == "gather" || name == "gather_mask" || name == "paged_gather") {
    TypeInfo r;
    r.kind = forced != ValueKind::Unknown ? forced : (t.kind == ValueKind::Unknown ? ValueKind::Tile : t.kind);
    if (const TypeInfo* src = argType(a, first())) r.dtype = src->dtype;
    // The index form, pl.gather(x, dim, index): the result is shaped like the index.
    if (name == "gather")
      if (const TypeInfo* idx = argType(a, arg(2, "index")); idx && idx->shape.rank_known) r.shape = idx->shape;
    int tm = arg(99, "target_memory");
    if (tm >= 0) r.space = a.space_of(tm);
    return finish(r);
  }
  // pl.sort32 pairs every value with its index: the last dimension doubles. pl.mrgsort of one list
  // (block_len=) is shaped like it; of 2-4 lists, their last dimensions add up (DeduceTensorMrgSortType).
  if (name == "sort32" || name == "mrgsort") {
    TypeInfo r = copyOf(first());
    if (!r.shape.rank_known || r.shape.dims.empty()) return finish(r);
    Dim& last = r.shape.dims.back();
    if (name == "sort32") {
      if (last) last = *last * 2;
    } else {
      for (std::size_t i = 1; i < a.call.args.size(); ++i) {
        const TypeInfo* src = argType(a, a.call.args[i]);
        if (!src || !src->shape.rank_known || src->shape.dims.empty() || !src->shape.dims.back() || !last) {
          last = std::nullopt;
          break;
        }
        last = *last + *src->shape.dims.back();
      }
    }
    return finish(r);
  }
  if (name == "concat") {
    TypeInfo r = copyOf(first());
    r.shape = {};
    return finish(r);
  }
  if (name == "cmp" || name == "cmps") {
    TypeInfo r = copyOf(first());
    if (forced == ValueKind::Tile) {  // pl.tile.cmp: the packed predicate mask (compareMaskType)
      r = compareMaskType(r);
      return finish(r);
    }
    // pl.cmp is lowered to a select of ones and zeros of the operands' type (RegisterCmpOps): a float
    // operand, or an integer one compared with an integer, keeps its dtype.
    const TypeInfo* rhs = argType(a, arg(1, "rhs"));
    const int rhs_expr = arg(1, "rhs");
    const bool same = isData(rhs) && rhs->dtype == r.dtype;
    const bool scalar_ok = !isData(rhs) && (dtypeIsFloat(r.dtype) ||
                                            (rhs_expr >= 0 && a.fn.exprs[static_cast<std::size_t>(rhs_expr)].number.isInt()));
    if (!same && !scalar_ok) r.dtype = DType::Unknown;
    return finish(r);
  }
  if (elementwise().count(name)) {
    int src = first();
    if (!isData(argType(a, src)))
      for (int e : a.call.args)
        if (isData(argType(a, e))) {
          src = e;
          break;
        }
    return finish(copyOf(src));
  }
  // Any other operation: its kind when known, nothing else.
  TypeInfo r;
  r.kind = t.kind;
  if (r.kind == ValueKind::Unknown) return r;
  return finish(r);
}

}  // namespace portcheck::dsl

// Parameters and type annotations: pl.Tensor[[shape], dtype] / pl.Tile[...] / pl.Scalar[...], Out and
// InOut directions, and a bare pl.Tensor specialised to what the program passes.
#include "dsl/function_body_internal.h"

namespace portcheck::dsl::detail {

void BodyBuilder::buildParams(TSNode params) {
  if (isNull(params)) return;
  for (TSNode p : namedChildren(params)) {
    std::string_view t = nodeType(p);
    if (t == "comment") continue;
    Param param;
    TSNode name{}, type{};
    if (t == "identifier") name = p;
    else if (t == "typed_parameter") {
      name = ts_node_named_child(p, 0);
      type = childByField(p, "type");
    } else if (t == "typed_default_parameter") {
      name = childByField(p, "name");
      type = childByField(p, "type");
    } else if (t == "default_parameter") {
      name = childByField(p, "name");
    } else {
      continue;  // *args, **kwargs, '/', '*'
    }
    if (isNull(name) || nodeType(name) != "identifier") continue;
    param.name = std::string(text(name));
    param.loc = loc(name);
    param.is_self = fn_.params.empty() && !fn_.class_name.empty() && param.name == "self";
    if (!isNull(type)) {
      param.has_annotation = true;
      TSNode ann = unwrapType(type);
      param.annotation_loc = loc(ann);
      param.annotation = expr(ann, -1, 0);
      param.type = annotationType(param.annotation, &param.direction, &param.dynamic_shape);
      if (param.type.kind == ValueKind::Tensor) param.type.space = MemSpace::DDR;
    }
    specialise(param, fn_.params.size());
    param.value = newValue(param.name, param.type, -1, -1);
    fn_.values[static_cast<std::size_t>(param.value)].param = static_cast<int>(fn_.params.size());
    fn_.params.push_back(std::move(param));
  }
}

// A bare `pl.Tensor` parameter takes the dtype (and shape, when it has none) the program passes.
void BodyBuilder::specialise(Param& param, std::size_t index) const {
  auto it = unit_.specialised.find({file_, fn_index_});
  if (it == unit_.specialised.end() || index >= it->second.size() || !it->second[index]) return;
  const TypeInfo& t = *it->second[index];
  if (param.type.kind != ValueKind::Tensor && param.type.kind != ValueKind::Unknown) return;
  if (param.type.kind == ValueKind::Unknown && param.has_annotation) return;
  param.type.kind = ValueKind::Tensor;
  param.type.space = MemSpace::DDR;
  if (param.type.dtype == DType::Unknown) param.type.dtype = t.dtype;
  if (!param.type.shape.rank_known) param.type.shape = t.shape;
}

Shape BodyBuilder::shapeFromList(int e, bool* dynamic) const {
  if (e < 0) return {};
  const Expr& x = fn_.exprs[static_cast<std::size_t>(e)];
  if (x.kind != ExprKind::List && x.kind != ExprKind::Tuple) return {};
  Shape s;
  s.rank_known = true;
  for (int c : x.children) {
    const Number& n = fn_.exprs[static_cast<std::size_t>(c)].number;
    if (n.isInt()) s.dims.push_back(n.i);
    else {
      s.dims.push_back(std::nullopt);
      if (dynamic) *dynamic = true;
    }
  }
  return s;
}

DType BodyBuilder::dtypeOf(int e) const {
  if (e < 0) return DType::Unknown;
  const std::string& pl = fn_.exprs[static_cast<std::size_t>(e)].pl_name;
  if (pl.rfind("DataType.", 0) == 0) return dtypeFromName(std::string_view(pl).substr(9));
  return dtypeFromName(pl);
}

MemSpace BodyBuilder::spaceOf(int e) const {
  if (e < 0) return MemSpace::Unknown;
  std::string_view pl = fn_.exprs[static_cast<std::size_t>(e)].pl_name;
  if (pl.rfind("MemorySpace.", 0) == 0) return memSpaceFromName(pl.substr(12));
  if (pl.rfind("Mem.", 0) == 0) return memSpaceFromName(pl.substr(4));
  return MemSpace::Unknown;
}

TypeInfo BodyBuilder::annotationType(int e, Direction* dir, bool* dynamic) const {
  TypeInfo t;
  if (e < 0) return t;
  const Expr& x = fn_.exprs[static_cast<std::size_t>(e)];
  std::string_view base;
  std::vector<int> idx;
  if (x.kind == ExprKind::Subscript && !x.children.empty()) {
    base = fn_.exprs[static_cast<std::size_t>(x.children[0])].pl_name;
    idx.assign(x.children.begin() + 1, x.children.end());
  } else {
    base = x.pl_name;
  }
  if (base == "Out" || base == "InOut") {
    if (dir) *dir = base == "Out" ? Direction::Out : Direction::InOut;
    return idx.empty() ? t : annotationType(idx[0], nullptr, dynamic);
  }
  if (base == "Tensor" || base == "Tile") {
    t.kind = base == "Tensor" ? ValueKind::Tensor : ValueKind::Tile;
    t.space = base == "Tensor" ? MemSpace::DDR : MemSpace::Vec;
    if (idx.empty()) {
      if (dynamic) *dynamic = true;
      return t;
    }
    t.shape = shapeFromList(idx[0], dynamic);
    for (std::size_t i = 1; i < idx.size(); ++i) {
      DType d = dtypeOf(idx[i]);
      if (d != DType::Unknown) t.dtype = d;
      MemSpace sp = spaceOf(idx[i]);
      if (sp != MemSpace::Unknown && base == "Tile") t.space = sp;
    }
    return t;
  }
  if (base == "Scalar") {
    t.kind = ValueKind::Scalar;
    if (!idx.empty()) t.dtype = dtypeOf(idx[0]);
    return t;
  }
  if (x.kind == ExprKind::Name && (x.name == "int" || x.name == "float" || x.name == "bool")) t.kind = ValueKind::Scalar;
  return t;
}

}  // namespace portcheck::dsl::detail

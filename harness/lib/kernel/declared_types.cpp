// Constant expressions (literals, constexpr names, sizeof, operators over them) and what a declared type
// is: a pto Tile / TileLeft / TileRight / TileAcc / ConvTile with its shape and layouts, a GlobalTensor,
// an Event, or another type, through `using` aliases.
#include "kernel/kernel_model_internal.h"

#include <charconv>

namespace portcheck::kernel::detail {

std::optional<std::int64_t> Builder::evalInt(TSNode n, std::uint32_t at) const {
  if (isNull(n)) return std::nullopt;
  std::string_view type = nodeType(n);
  if (type == "type_descriptor") return evalInt(childByField(n, "type"), at);
  if (type == "number_literal") {
    std::string s(txt(n));
    while (!s.empty() && (s.back() == 'u' || s.back() == 'U' || s.back() == 'l' || s.back() == 'L')) s.pop_back();
    bool neg = !s.empty() && s[0] == '-';
    if (neg) s.erase(0, 1);
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s.erase(0, 2);
    std::int64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
    return neg ? -v : v;
  }
  if (type == "identifier" || type == "type_identifier" || type == "qualified_identifier") {
    std::string_view name = afterScope(txt(n));
    if (name == "DYNAMIC") return -1;
    if (const Constant* c = lookup(constants_, name, at)) return c->value;
    return std::nullopt;
  }
  if (type == "parenthesized_expression") return evalInt(ts_node_named_child(n, 0), at);
  if (type == "unary_expression") {
    auto v = evalInt(childByField(n, "argument"), at);
    std::string_view op = txt(childByField(n, "operator"));
    if (!v) return std::nullopt;
    if (op == "-") return -*v;
    if (op == "+") return *v;
    return std::nullopt;
  }
  if (type == "sizeof_expression") {
    TSNode ty = childByField(n, "type");
    if (isNull(ty)) return std::nullopt;
    auto b = dtypeBytes(normaliseDtype(squeeze(txt(ty))));
    if (b) return *b;
    return std::nullopt;
  }
  if (type == "binary_expression") {
    auto l = evalInt(childByField(n, "left"), at), r = evalInt(childByField(n, "right"), at);
    if (!l || !r) return std::nullopt;
    std::string_view op = txt(childByField(n, "operator"));
    if (op == "+") return *l + *r;
    if (op == "-") return *l - *r;
    if (op == "*") return *l * *r;
    if (op == "/") return *r ? std::optional<std::int64_t>(*l / *r) : std::nullopt;
    if (op == "%") return *r ? std::optional<std::int64_t>(*l % *r) : std::nullopt;
    if (op == "<<" && *r >= 0 && *r < 62) return *l << *r;
    if (op == ">>" && *r >= 0 && *r < 62) return *l >> *r;
    return std::nullopt;
  }
  return std::nullopt;
}

// True when `n` is a compile-time constant: literals, constexpr names, template parameters, enumerators
// (`A::B`), sizeof, and operators over those.
bool Builder::isConstantExpr(TSNode n, std::uint32_t at) const {
  if (isNull(n)) return false;
  if (evalInt(n, at)) return true;
  std::string_view type = nodeType(n);
  if (type == "number_literal" || type == "true" || type == "false" || type == "char_literal" ||
      type == "sizeof_expression" || type == "qualified_identifier")
    return true;
  if (type == "identifier") {
    std::string_view name = txt(n);
    return lookup(constants_, name, at) || lookup(constant_names_, name, at);
  }
  if (type == "parenthesized_expression") return isConstantExpr(ts_node_named_child(n, 0), at);
  if (type == "unary_expression") return isConstantExpr(childByField(n, "argument"), at);
  if (type == "binary_expression")
    return isConstantExpr(childByField(n, "left"), at) && isConstantExpr(childByField(n, "right"), at);
  if (type == "conditional_expression")
    return isConstantExpr(childByField(n, "condition"), at) && isConstantExpr(childByField(n, "consequence"), at) &&
           isConstantExpr(childByField(n, "alternative"), at);
  if (type == "cast_expression" || type == "static_cast_expression")
    return isConstantExpr(childByField(n, "value"), at);
  return false;
}

std::string Builder::show(const std::optional<std::int64_t>& v, std::string_view spelled) {
  return v ? std::to_string(*v) : std::string(spelled);
}

Builder::Resolved Builder::tileFromArgs(Loc loc, std::string_view family, const std::vector<TSNode>& args,
                                        std::uint32_t at) const {
  Resolved r;
  r.kind = SymbolKind::Tile;
  TileType& t = r.tile;
  t.loc = loc;
  auto arg = [&](std::size_t i) { return i < args.size() ? args[i] : TSNode{}; };
  auto argText = [&](std::size_t i) { return i < args.size() ? squeeze(txt(args[i])) : std::string(); };
  std::size_t first = family == "Tile" || family == "ConvTile" ? 1 : 0;  // Tile<Loc, T, R, C, ...>
  t.dtype = normaliseDtype(argText(first));
  t.rows = evalInt(arg(first + 1), at);
  t.cols = evalInt(arg(first + 2), at);
  std::string rv, cv;
  if (family == "Tile") {
    if (args.size() > 4) t.blayout = std::string(afterScope(argText(4)));
    t.valid_rows = args.size() > 5 ? evalInt(arg(5), at) : t.rows;
    t.valid_cols = args.size() > 6 ? evalInt(arg(6), at) : t.cols;
    if (args.size() > 7) t.slayout = std::string(afterScope(argText(7)));
    rv = args.size() > 5 ? argText(5) : "";
    cv = args.size() > 6 ? argText(6) : "";
  } else {
    // TileLeft/TileRight/TileAcc<T, R, C[, RV, CV]>: fractal (boxed) layouts (pto_tile.hpp:1714-1777).
    t.valid_rows = args.size() > 3 ? evalInt(arg(3), at) : t.rows;
    t.valid_cols = args.size() > 4 ? evalInt(arg(4), at) : t.cols;
    t.blayout = loc == Loc::Right ? "RowMajor" : "ColMajor";
    t.slayout = loc == Loc::Right ? "ColMajor" : "RowMajor";
    rv = args.size() > 3 ? argText(3) : "";
    cv = args.size() > 4 ? argText(4) : "";
  }
  std::string tail;
  for (std::size_t i = family == "Tile" ? 8 : 5; i < args.size(); ++i) tail += "," + argText(i);
  t.canonical = "Tile<" + std::string(toString(loc)) + "," + t.dtype + "," + show(t.rows, argText(first + 1)) + "," +
                show(t.cols, argText(first + 2)) + "," + t.blayout + "," + show(t.valid_rows, rv) + "," +
                show(t.valid_cols, cv) + "," + t.slayout + tail + ">";
  return r;
}

Builder::Resolved Builder::resolveType(TSNode n, std::uint32_t at) const {
  Resolved none;
  if (isNull(n)) return none;
  std::string_view type = nodeType(n);
  if (type == "type_descriptor") return resolveType(childByField(n, "type"), at);
  if (type == "qualified_identifier") {
    TSNode name = childByField(n, "name");
    if (!isNull(name) && (nodeType(name) == "template_type" || nodeType(name) == "type_identifier"))
      return resolveType(name, at);
    return none;
  }
  if (type == "type_identifier") {
    std::string_view name = txt(n);
    if (const Alias* a = lookup(aliases_, name, at)) return Resolved{a->kind, a->tile};
    return none;
  }
  if (type == "template_type") {
    std::string name(afterScope(txt(childByField(n, "name"))));
    std::vector<TSNode> args;
    TSNode list = childByField(n, "arguments");
    for (uint32_t i = 0; !isNull(list) && i < ts_node_named_child_count(list); ++i)
      args.push_back(ts_node_named_child(list, i));
    if (name == "Tile" || name == "ConvTile") {
      auto loc = args.empty() ? std::nullopt : parseLoc(squeeze(txt(args[0])));
      Resolved r = tileFromArgs(loc.value_or(Loc::Unknown), name, args, at);
      if (name == "ConvTile") {
        // ConvTile<Loc, T, BufferSize, Layout, ConvTileShape<N1..>>: no rows x cols shape of its own.
        r.tile.conv = true;
        r.tile.rows = r.tile.cols = r.tile.valid_rows = r.tile.valid_cols = std::nullopt;
        TSNode shape = args.size() > 4 ? args[4] : TSNode{};
        if (!isNull(shape) && nodeType(shape) == "type_descriptor") shape = childByField(shape, "type");
        if (!isNull(shape) && nodeType(shape) == "qualified_identifier") shape = childByField(shape, "name");
        if (!isNull(shape) && nodeType(shape) == "template_type") {
          TSNode dims = childByField(shape, "arguments");
          for (uint32_t i = 0; !isNull(dims) && i < ts_node_named_child_count(dims); ++i) {
            auto v = evalInt(ts_node_named_child(dims, i), at);
            if (v && *v < 0) r.tile.conv_dynamic_shape = true;
          }
        }
      }
      return r;
    }
    if (name.starts_with("TileLeftScale")) return tileFromArgs(Loc::ScaleLeft, name, args, at);
    if (name.starts_with("TileRightScale")) return tileFromArgs(Loc::ScaleRight, name, args, at);
    if (name.starts_with("TileLeft")) return tileFromArgs(Loc::Left, name, args, at);
    if (name.starts_with("TileRight")) return tileFromArgs(Loc::Right, name, args, at);
    if (name.starts_with("TileAcc")) return tileFromArgs(Loc::Acc, name, args, at);
    if (name == "GlobalTensor") return Resolved{SymbolKind::GlobalTensor, {}};
    if (name == "Event") return Resolved{SymbolKind::Event, {}};
    if (const Alias* a = lookup(aliases_, name, at)) return Resolved{a->kind, a->tile};  // template alias
    return none;
  }
  return none;
}

}  // namespace portcheck::kernel::detail

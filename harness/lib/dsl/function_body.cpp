// Function bodies: statements, expressions, values and their types, loops, scopes, incore regions.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "dsl/const_eval.h"
#include "dsl/model_builder.h"
#include "dsl/pl_names.h"
#include "dsl/type_rules.h"

namespace portcheck::dsl::detail {

namespace {


std::string unquote(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;  // r/b/u prefixes
  s.remove_prefix(i);
  for (std::string_view q : {"\"\"\"", "'''", "\"", "'"}) {
    if (s.size() >= 2 * q.size() && s.substr(0, q.size()) == q && s.substr(s.size() - q.size()) == q)
      return std::string(s.substr(q.size(), s.size() - 2 * q.size()));
  }
  return std::string(s);
}

// Python AST names of expressions the pypto parser rejects (parse_expression's else branch).
std::string_view unsupportedExprKind(std::string_view t) {
  if (t == "list_comprehension") return "ListComp";
  if (t == "dictionary_comprehension") return "DictComp";
  if (t == "set_comprehension") return "SetComp";
  if (t == "generator_expression") return "GeneratorExp";
  if (t == "lambda") return "Lambda";
  if (t == "conditional_expression") return "IfExp";
  if (t == "dictionary") return "Dict";
  if (t == "set") return "Set";
  if (t == "named_expression") return "NamedExpr";
  if (t == "await") return "Await";
  if (t == "yield") return "Yield";
  if (t == "list_splat" || t == "dictionary_splat") return "Starred";
  return {};
}

// Python AST names of statements the pypto parser rejects (parse_statement's else branch).
std::string_view unsupportedStmtKind(std::string_view t) {
  if (t == "augmented_assignment") return "AugAssign";
  if (t == "try_statement") return "Try";
  if (t == "raise_statement") return "Raise";
  if (t == "assert_statement") return "Assert";
  if (t == "delete_statement") return "Delete";
  if (t == "global_statement") return "Global";
  if (t == "nonlocal_statement") return "Nonlocal";
  if (t == "import_statement") return "Import";
  if (t == "import_from_statement" || t == "future_import_statement") return "ImportFrom";
  if (t == "function_definition" || t == "decorated_definition") return "FunctionDef";
  if (t == "class_definition") return "ClassDef";
  if (t == "match_statement") return "Match";
  if (t == "type_alias_statement") return "TypeAlias";
  if (t == "print_statement" || t == "exec_statement") return "Expr";
  return {};
}

class BodyBuilder {
 public:
  BodyBuilder(Unit& unit, int file, int fn_index)
      : unit_(unit), file_(file), fn_index_(fn_index), scan_(unit.scans[static_cast<std::size_t>(file)]),
        fm_(unit.files[static_cast<std::size_t>(file)]), fn_(fm_.functions[static_cast<std::size_t>(fn_index)]) {}

  void buildSignature(TSNode def) {
    buildParams(childByField(def, "parameters"));
    TSNode ret = childByField(def, "return_type");
    if (!isNull(ret)) {
      fn_.return_annotation = expr(unwrapType(ret), -1, 0);
      fn_.return_type = annotationType(fn_.return_annotation, nullptr, nullptr);
      if (fn_.return_type.kind == ValueKind::Tensor) fn_.return_type.space = MemSpace::DDR;
    }
  }

  // `inlined_into_kernel`: an inline function called only from incore code, whose body is spliced
  // into a kernel: built as incore code (region 0, with no kernel name of its own).
  void buildBody(TSNode def, bool inlined_into_kernel = false) {
    for (const Param& p : fn_.params)
      if (!p.is_self && p.value >= 0) env_[p.name] = p.value;
    countAssignments(childByField(def, "body"));
    // Room up front, so the vectors seldom move their 100-200-byte elements as they grow: over the upstream
    // corpus a DSL body has an expression per 10 bytes (at most 0.18 per byte), a value per 70 and a
    // statement per 125.
    const std::size_t bytes = ts_node_end_byte(def) - ts_node_start_byte(def);
    fn_.exprs.reserve(fn_.exprs.size() + bytes / 8);
    fn_.values.reserve(fn_.values.size() + bytes / 48);
    fn_.stmts.reserve(fn_.stmts.size() + bytes / 80);
    const bool whole = fn_.isIncoreFunction() || inlined_into_kernel;
    if (whole) {
      IncoreRegion r;
      r.kind = RegionKind::IncoreFunction;
      if (fn_.isIncoreFunction()) r.kernel_name = fn_.name;
      fn_.regions.push_back(r);
      region_ = 0;
    }
    buildBlock(childByField(def, "body"), -1, 0);
    if (whole) fn_.regions[0].last = static_cast<int>(fn_.stmts.size());
  }

 private:
  Unit& unit_;
  int file_;
  int fn_index_;
  FileScan& scan_;
  FileModel& fm_;
  Function& fn_;
  std::unordered_map<std::string, int> env_;           // name -> current value
  std::unordered_map<std::string, int> assign_count_;  // name -> times assigned in the body
  std::vector<int> loops_;                             // enclosing loop statements
  int region_ = -1;

  std::string_view text(TSNode n) const { return scan_.tree.nodeText(n); }
  Loc loc(TSNode n) const { return locOf(*scan_.src, n); }

  static TSNode unwrapType(TSNode n) {
    if (!isNull(n) && nodeType(n) == "type" && ts_node_named_child_count(n) > 0) return ts_node_named_child(n, 0);
    return n;
  }

  // ------------------------------------------------------------ pre-scan

  void countAssignments(TSNode body) {
    if (isNull(body)) return;
    std::vector<TSNode> stack{body};
    while (!stack.empty()) {
      TSNode n = stack.back();
      stack.pop_back();
      std::string_view t = nodeType(n);
      if (t == "assignment" || t == "augmented_assignment" || t == "for_statement") {
        TSNode left = childByField(n, "left");
        std::vector<TSNode> names{left};
        while (!names.empty()) {
          TSNode x = names.back();
          names.pop_back();
          if (isNull(x)) continue;
          if (nodeType(x) == "identifier") {
            assign_count_[std::string(text(x))] += (t == "assignment") ? 1 : 2;
            continue;
          }
          std::string_view xt = nodeType(x);
          if (xt == "pattern_list" || xt == "tuple_pattern" || xt == "list_pattern" || xt == "tuple" ||
              xt == "list" || xt == "parenthesized_expression")
            for (TSNode child : namedChildren(x)) names.push_back(child);
        }
      }
      // Assignments are statements (or the value of a chained one): only statement containers
      // can hold them, so expressions are not walked.
      if (!holdsStatements(t)) continue;
      for (TSNode child : namedChildren(n)) stack.push_back(child);
    }
  }

  static bool holdsStatements(std::string_view t) {
    for (std::string_view s : {"block", "expression_statement", "assignment", "if_statement", "elif_clause",
                               "else_clause", "for_statement", "while_statement", "with_statement", "try_statement",
                               "except_clause", "except_group_clause", "finally_clause", "match_statement",
                               "case_clause", "ERROR"})
      if (t == s) return true;
    return false;
  }

  // ------------------------------------------------------------ values

  int newValue(std::string name, TypeInfo type, int def_stmt, int def_expr) {
    Value v;
    v.name = std::move(name);
    v.type = std::move(type);
    v.def_stmt = def_stmt;
    v.def_expr = def_expr;
    fn_.values.push_back(std::move(v));
    return static_cast<int>(fn_.values.size()) - 1;
  }

  void use(int value, int stmt) {
    if (value >= 0 && stmt >= 0) fn_.values[static_cast<std::size_t>(value)].uses.push_back(stmt);
  }

  const TypeInfo* typeOf(int e) const {
    if (e < 0) return nullptr;
    int v = fn_.exprs[static_cast<std::size_t>(e)].value;
    return v >= 0 ? &fn_.values[static_cast<std::size_t>(v)].type : nullptr;
  }

  bool incore() const { return region_ >= 0; }

  // Binds `name` to `value` at `stmt`, noting a loop-carried redefinition.
  void bind(const std::string& name, int value, int stmt) {
    auto it = env_.find(name);
    if (it != env_.end() && it->second != value) {
      adoptAccumulatorSpace(it->second, value);
      const Value& old = fn_.values[static_cast<std::size_t>(it->second)];
      for (int loop : loops_) {  // outermost first
        bool defined_outside = old.def_stmt < loop;
        // the loop is still open: every statement after it so far is inside it
        bool used_inside = std::any_of(old.uses.begin(), old.uses.end(), [&](int u) { return u > loop; });
        if (defined_outside && used_inside) {
          Value& nv = fn_.values[static_cast<std::size_t>(value)];
          nv.loop_carried = true;
          nv.carried_loop = loop;
          break;
        }
      }
    }
    env_[name] = value;
  }

  // acc = pl.create_tensor(...) then, in a loop, acc = pl.matmul(...): the created tile defaults to Vec,
  // but InferTileMemorySpace gives a loop-carry init the space the body writes (Acc here).
  void adoptAccumulatorSpace(int old_value, int new_value) {
    Value& old = fn_.values[static_cast<std::size_t>(old_value)];
    const Value& nv = fn_.values[static_cast<std::size_t>(new_value)];
    if (!old.on_chip || !nv.on_chip || old.def_expr < 0 || nv.type.space == old.type.space) return;
    if (nv.type.space == MemSpace::Unknown || nv.type.space == MemSpace::DDR) return;
    std::string_view op = fn_.exprs[static_cast<std::size_t>(old.def_expr)].pl_name;
    if (op != "create_tensor" && op != "create" && op != "tensor.create") return;
    bool in_later_loop = std::any_of(loops_.begin(), loops_.end(), [&](int l) { return old.def_stmt < l; });
    if (in_later_loop) old.type.space = nv.type.space;
  }

  // ------------------------------------------------------------ parameters

  void buildParams(TSNode params) {
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
  void specialise(Param& param, std::size_t index) const {
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

  // ------------------------------------------------------------ annotations

  Shape shapeFromList(int e, bool* dynamic) const {
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

  DType dtypeOf(int e) const {
    if (e < 0) return DType::Unknown;
    const std::string& pl = fn_.exprs[static_cast<std::size_t>(e)].pl_name;
    if (pl.rfind("DataType.", 0) == 0) return dtypeFromName(std::string_view(pl).substr(9));
    return dtypeFromName(pl);
  }

  MemSpace spaceOf(int e) const {
    if (e < 0) return MemSpace::Unknown;
    std::string_view pl = fn_.exprs[static_cast<std::size_t>(e)].pl_name;
    if (pl.rfind("MemorySpace.", 0) == 0) return memSpaceFromName(pl.substr(12));
    if (pl.rfind("Mem.", 0) == 0) return memSpaceFromName(pl.substr(4));
    return MemSpace::Unknown;
  }

  TypeInfo annotationType(int e, Direction* dir, bool* dynamic) const {
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

  // ------------------------------------------------------------ expressions

  int addExpr(ExprKind kind, TSNode n, int stmt) {
    Expr e;
    e.kind = kind;
    e.loc = loc(n);
    e.begin = ts_node_start_byte(n);
    e.end = ts_node_end_byte(n);
    e.stmt = stmt;
    fn_.exprs.push_back(std::move(e));
    return static_cast<int>(fn_.exprs.size()) - 1;
  }

  Expr& X(int e) { return fn_.exprs[static_cast<std::size_t>(e)]; }

  std::string dotted(int e) const {
    const Expr& x = fn_.exprs[static_cast<std::size_t>(e)];
    if (x.kind == ExprKind::Name) return x.name;
    if (x.kind == ExprKind::Attribute && !x.children.empty()) {
      std::string base = dotted(x.children[0]);
      return base.empty() ? std::string() : base + "." + x.name;
    }
    return {};
  }

  // Temporary results consumed by an enclosing expression count as used at that statement.
  void useChild(int child, int stmt) {
    if (child < 0) return;
    const Expr& c = fn_.exprs[static_cast<std::size_t>(child)];
    if (c.value >= 0 && c.kind != ExprKind::Name) use(c.value, stmt);
  }

  int unsupported(TSNode n, int stmt, std::string_view kind) {
    int id = addExpr(ExprKind::Unsupported, n, stmt);
    X(id).name = std::string(kind);
    fn_.unsupported_exprs.push_back(id);
    return id;
  }

  int expr(TSNode n, int stmt, int depth) {
    if (isNull(n)) return -1;
    if (depth > kMaxNesting) {
      fm_.truncated = true;
      return unsupported(n, stmt, "TooDeep");
    }
    std::string_view t = nodeType(n);
    if (t == "parenthesized_expression") {
      for (TSNode c : namedChildren(n)) {
        if (!isComment(c)) return expr(c, stmt, depth + 1);
      }
      return addExpr(ExprKind::Other, n, stmt);
    }
    if (t == "identifier") return nameExpr(n, stmt);  // the most common kinds first: none is unsupported
    if (std::string_view k = unsupportedExprKind(t); !k.empty()) return unsupported(n, stmt, k);
    if (t == "attribute") {
      int obj = expr(childByField(n, "object"), stmt, depth + 1);
      int id = addExpr(ExprKind::Attribute, n, stmt);
      X(id).name = std::string(text(childByField(n, "attribute")));
      if (obj >= 0) X(id).children.push_back(obj);
      std::string d = dotted(id);
      if (!d.empty()) X(id).pl_name = relativeToPl(fm_, d);
      return id;
    }
    if (t == "call") return callExpr(n, stmt, depth);
    if (t == "integer" || t == "float") {
      int id = addExpr(t == "integer" ? ExprKind::Int : ExprKind::Float, n, stmt);
      X(id).number = parseNumberLiteral(text(n));
      return id;
    }
    if (t == "string" || t == "concatenated_string") {
      bool interpolated = false;
      std::vector<TSNode> stack{n};
      while (!stack.empty()) {
        TSNode c = stack.back();
        stack.pop_back();
        if (nodeType(c) == "interpolation") interpolated = true;
        if (nodeType(c) == "concatenated_string")
          for (TSNode child : namedChildren(c)) stack.push_back(child);
        else if (nodeType(c) == "string")
          for (uint32_t i = 0; i < ts_node_named_child_count(c); ++i)
            if (nodeType(ts_node_named_child(c, i)) == "interpolation") interpolated = true;
      }
      if (interpolated) return unsupported(n, stmt, "JoinedStr");
      int id = addExpr(ExprKind::String, n, stmt);
      X(id).name = unquote(text(n));
      return id;
    }
    if (t == "true" || t == "false") {
      int id = addExpr(ExprKind::Bool, n, stmt);
      X(id).number = Number::ofInt(t == "true" ? 1 : 0);
      return id;
    }
    if (t == "none") return addExpr(ExprKind::None, n, stmt);
    if (t == "list" || t == "tuple" || t == "expression_list" || t == "pattern_list" || t == "tuple_pattern" ||
        t == "list_pattern") {
      std::vector<int> kids;
      for (TSNode c : namedChildren(n)) {
        if (!isComment(c)) kids.push_back(expr(c, stmt, depth + 1));
      }
      int id = addExpr(t == "list" || t == "list_pattern" ? ExprKind::List : ExprKind::Tuple, n, stmt);
      for (int k : kids)
        if (k >= 0) {
          X(id).children.push_back(k);
          useChild(k, stmt);
        }
      return id;
    }
    if (t == "subscript") return subscriptExpr(n, stmt, depth);
    if (t == "slice") return sliceExpr(n, stmt, depth);
    if (t == "binary_operator") {
      int l = expr(childByField(n, "left"), stmt, depth + 1);
      int r = expr(childByField(n, "right"), stmt, depth + 1);
      int id = addExpr(ExprKind::BinOp, n, stmt);
      X(id).name = std::string(text(childByField(n, "operator")));
      for (int c : {l, r})
        if (c >= 0) {
          X(id).children.push_back(c);
          useChild(c, stmt);
        }
      if (l >= 0 && r >= 0) X(id).number = applyBinary(X(id).name, X(l).number, X(r).number);
      // Arithmetic on a tensor / tile operand yields one of the same kind.
      const TypeInfo* lt = typeOf(l);
      const TypeInfo* rt = typeOf(r);
      const TypeInfo* data = (lt && (lt->kind == ValueKind::Tensor || lt->kind == ValueKind::Tile)) ? lt
                             : (rt && (rt->kind == ValueKind::Tensor || rt->kind == ValueKind::Tile)) ? rt
                                                                                                       : nullptr;
      if (data) {
        TypeInfo ti = *data;
        if (ti.kind == ValueKind::Tile) ti.space = MemSpace::Vec;
        X(id).value = newResult(ti, stmt, id);
      } else if ((lt && lt->kind == ValueKind::Scalar) || (rt && rt->kind == ValueKind::Scalar)) {
        TypeInfo ti;
        ti.kind = ValueKind::Scalar;
        X(id).value = newResult(ti, stmt, id);
      }
      return id;
    }
    if (t == "unary_operator") {
      int a = expr(childByField(n, "argument"), stmt, depth + 1);
      int id = addExpr(ExprKind::UnaryOp, n, stmt);
      X(id).name = std::string(text(childByField(n, "operator")));
      if (a >= 0) {
        X(id).children.push_back(a);
        useChild(a, stmt);
        X(id).number = applyUnary(X(id).name, X(a).number);
        const TypeInfo* at = typeOf(a);
        if (at && (at->kind == ValueKind::Tensor || at->kind == ValueKind::Tile)) X(id).value = newResult(*at, stmt, id);
      }
      return id;
    }
    if (t == "comparison_operator" || t == "boolean_operator" || t == "not_operator") {
      std::vector<int> kids;
      for (TSNode c : namedChildren(n)) {
        if (!isComment(c)) kids.push_back(expr(c, stmt, depth + 1));
      }
      int id = addExpr(t == "comparison_operator" ? ExprKind::Compare
                       : t == "boolean_operator"  ? ExprKind::BoolOp
                                                  : ExprKind::UnaryOp,
                       n, stmt);
      if (t == "boolean_operator") X(id).name = std::string(text(childByField(n, "operator")));
      else if (t == "not_operator") X(id).name = "not";
      else {
        // the first operator token between the operands
        for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
          TSNode c = ts_node_child(n, i);
          if (!ts_node_is_named(c)) {
            X(id).name = std::string(text(c));
            break;
          }
        }
      }
      for (int k : kids)
        if (k >= 0) {
          X(id).children.push_back(k);
          useChild(k, stmt);
        }
      foldComparison(X(id));
      return id;
    }
    if (t == "keyword_argument") {
      int v = expr(childByField(n, "value"), stmt, depth + 1);
      int id = addExpr(ExprKind::Keyword, n, stmt);
      X(id).name = std::string(text(childByField(n, "name")));
      if (v >= 0) X(id).children.push_back(v);
      return id;
    }
    if (t == "ERROR") return addExpr(ExprKind::Error, n, stmt);
    return addExpr(ExprKind::Other, n, stmt);
  }

  int nameExpr(TSNode n, int stmt) {
    int id = addExpr(ExprKind::Name, n, stmt);
    std::string name(text(n));
    auto it = env_.find(name);
    if (it != env_.end()) {
      X(id).value = it->second;
      use(it->second, stmt);
      X(id).number = fn_.values[static_cast<std::size_t>(it->second)].number;
    } else {
      ConstValue c = lookupConstant(unit_, file_, name);
      X(id).number = c.number;
      auto pl = fm_.pl_names.find(name);
      if (pl != fm_.pl_names.end()) X(id).pl_name = pl->second;
    }
    X(id).name = std::move(name);
    return id;
  }

  // A tuple constant referenced by name expands to its elements (for shapes like [*SHAPE]).
  Shape shapeArg(int e) const {
    if (e < 0) return {};
    const Expr& x = fn_.exprs[static_cast<std::size_t>(e)];
    if (x.kind == ExprKind::Name && x.value < 0) {
      ConstValue c = lookupConstant(unit_, file_, x.name);
      if (c.is_tuple) {
        Shape s;
        s.rank_known = true;
        for (const Number& n : c.tuple) s.dims.push_back(n.isInt() ? Dim(n.i) : std::nullopt);
        return s;
      }
    }
    return shapeFromList(e, nullptr);
  }

  int newResult(TypeInfo type, int stmt, int def_expr) {  // by value: `type` may live in fn_.values
    int v = newValue("", type, stmt, def_expr);
    Value& val = fn_.values[static_cast<std::size_t>(v)];
    val.on_chip = type.kind == ValueKind::Tile;
    return v;
  }

  int callExpr(TSNode n, int stmt, int depth) {
    int callee = expr(childByField(n, "function"), stmt, depth + 1);
    std::vector<int> args;
    std::vector<std::pair<std::string, int>> kwargs;
    std::vector<int> kids;
    TSNode arglist = childByField(n, "arguments");
    if (!isNull(arglist)) {
      if (nodeType(arglist) == "generator_expression") {
        int g = unsupported(arglist, stmt, "GeneratorExp");
        args.push_back(g);
        kids.push_back(g);
      } else {
        for (TSNode a : namedChildren(arglist)) {
          if (isComment(a)) continue;
          if (nodeType(a) == "keyword_argument") {
            int v = expr(childByField(a, "value"), stmt, depth + 1);
            if (v < 0) continue;
            kwargs.emplace_back(std::string(text(childByField(a, "name"))), v);
            kids.push_back(v);
          } else {
            int v = expr(a, stmt, depth + 1);
            if (v < 0) continue;
            args.push_back(v);
            kids.push_back(v);
          }
        }
      }
    }
    int id = addExpr(ExprKind::Call, n, stmt);
    Expr& call = X(id);
    if (callee >= 0) {
      call.children.push_back(callee);
      call.name = dotted(callee);
      if (call.name.empty()) call.name = std::string(text(childByField(n, "function")));
      call.pl_name = X(callee).pl_name;
    }
    for (int k : kids) {
      X(id).children.push_back(k);
      useChild(k, stmt);
    }
    X(id).args = std::move(args);
    X(id).kwargs = std::move(kwargs);
    fn_.calls.push_back(id);
    if (X(id).pl_name == "yield_") {
      // x = pl.yield_(v): the loop / branch result takes its operand's type
      if (X(id).args.size() == 1 && X(X(id).args[0]).value >= 0) {
        const Value& src = fn_.values[static_cast<std::size_t>(X(X(id).args[0]).value)];
        TypeInfo ti = src.type;
        bool on_chip = src.on_chip;
        int v = newResult(ti, stmt, id);
        fn_.values[static_cast<std::size_t>(v)].on_chip = on_chip;
        X(id).value = v;
      }
    } else if (!X(id).pl_name.empty()) typePlCall(id, stmt);
    else resolveUserCall(id, stmt);
    return id;
  }

  void typePlCall(int id, int stmt) {
    OpArgs a{fn_, X(id), [this](int e) { return shapeArg(e); }, [this](int e) { return dtypeOf(e); },
             [this](int e) { return spaceOf(e); }};
    std::optional<TypeInfo> t = inferPlCall(a);
    if (!t) return;
    int v = newResult(*t, stmt, id);
    X(id).value = v;
    markOnChip(v, id);
  }

  // Tensor-level compute inside incore code becomes tiles; views and GM writes stay in GM.
  void markOnChip(int v, int call) {
    Value& val = fn_.values[static_cast<std::size_t>(v)];
    if (val.type.kind == ValueKind::Tile) {
      val.on_chip = true;
      return;
    }
    if (val.type.kind != ValueKind::Tensor || !incore()) return;
    std::string_view op = fn_.exprs[static_cast<std::size_t>(call)].pl_name;
    for (std::string_view prefix : {"tensor.", "tile."})
      if (op.rfind(prefix, 0) == 0) op.remove_prefix(prefix.size());
    static const std::unordered_set<std::string_view> kGm = {
        "store", "assemble", "create_tensor", "create", "no_dep", "dump_tag", "reshape", "transpose",
        "reinterpret_view", "view", "mscatter", "scatter_update", "set_validshape", "write"};
    // A tensor created inside an incore scope is a tile there (ConvertTensorToTile: tensor.create ->
    // tile.create in Vec), written in place by slice assignments and live to its last use.
    const bool created = op == "create_tensor" || op == "create";
    if (kGm.count(op) && !created) {
      // An op on an on-chip operand stays on chip (reshape of a tile-like tensor, ...).
      const Expr& c = fn_.exprs[static_cast<std::size_t>(call)];
      int first = c.args.empty() ? -1 : c.args[0];
      const Value* src = first >= 0 ? fn_.valueOf(first) : nullptr;
      if (op == "store" || op == "assemble" || !src || !src->on_chip)
        return;
    }
    val.on_chip = true;
    if (val.type.space == MemSpace::DDR || val.type.space == MemSpace::Unknown)
      val.type.space = (op == "matmul" || op == "matmul_acc") ? MemSpace::Acc : MemSpace::Vec;
  }

  void resolveUserCall(int id, int stmt) {
    Expr& call = X(id);
    const std::string& name = call.name;
    FunctionRef ref;
    std::size_t dot = name.find('.');
    if (dot == std::string::npos) {
      int idx = fm_.functionIndex(name);
      if (idx >= 0) ref = {file_, idx};
      else if (auto b = scan_.bindings.find(name); b != scan_.bindings.end() && b->second.kind == Binding::Kind::Name)
        ref = {b->second.file, unit_.files[static_cast<std::size_t>(b->second.file)].functionIndex(b->second.name)};
    } else if (name.rfind("self.", 0) == 0 && !fn_.class_name.empty() && name.find('.', 5) == std::string::npos) {
      int idx = fm_.functionIndex(name.substr(5), fn_.class_name);
      if (idx >= 0) ref = {file_, idx};
    } else if (name.find('.', dot + 1) == std::string::npos) {
      auto b = scan_.bindings.find(name.substr(0, dot));
      if (b != scan_.bindings.end() && b->second.kind == Binding::Kind::Module)
        ref = {b->second.file, unit_.files[static_cast<std::size_t>(b->second.file)].functionIndex(name.substr(dot + 1))};
    }
    if (ref.valid()) {
      call.callee_file = ref.file;
      call.callee_function = ref.function;
    }
    // Result: a DSL callee returns tensors (its return annotation says which when given).
    TypeInfo t;
    bool tensor_arg = false;
    for (int a : call.args) {
      const TypeInfo* at = typeOf(a);
      if (at && at->kind == ValueKind::Tensor) tensor_arg = true;
    }
    if (ref.valid()) {
      const Function& callee = unit_.files[static_cast<std::size_t>(ref.file)].functions[static_cast<std::size_t>(ref.function)];
      if (callee.return_type.kind != ValueKind::Unknown) {
        t = callee.return_type;
      } else if (callee.isDsl() && tensor_arg) {
        // c = kernel(a, b, c): the result is the tensor passed for the first Out / InOut parameter
        t.kind = ValueKind::Tensor;
        if (const TypeInfo* out = outArgumentType(call, 0)) t = *out;
        t.space = MemSpace::DDR;
      }
    }
    if (t.kind != ValueKind::Unknown) X(id).value = newResult(t, stmt, id);
  }

  // x[a:b, c:d] on a tensor or tile: a view / implicit load of the sliced region.
  int subscriptExpr(TSNode n, int stmt, int depth) {
    const TSNode value = childByField(n, "value");
    int base = expr(value, stmt, depth + 1);
    std::vector<int> idx;
    for (TSNode c : namedChildren(n)) {
      if (isComment(c) || ts_node_eq(c, value)) continue;
      int e = expr(c, stmt, depth + 1);
      if (e >= 0) idx.push_back(e);
    }
    int id = addExpr(ExprKind::Subscript, n, stmt);
    if (base >= 0) X(id).children.push_back(base);
    for (int e : idx) {
      X(id).children.push_back(e);
      useChild(e, stmt);
    }
    const TypeInfo* bt = typeOf(base);
    if (bt && (bt->kind == ValueKind::Tensor || bt->kind == ValueKind::Tile)) {
      TypeInfo t = *bt;
      t.shape = sliceShape(*bt, idx);
      int v = newResult(t, stmt, id);
      X(id).value = v;
      if (t.kind == ValueKind::Tensor && incore()) {
        Value& val = fn_.values[static_cast<std::size_t>(v)];
        val.on_chip = true;
        val.type.space = MemSpace::Vec;
      }
      fn_.subscripts.push_back({stmt, id, X(base).value, false});
    } else if (base >= 0 && X(base).kind == ExprKind::Name && idx.size() == 1 && X(idx[0]).number.isInt()) {
      ConstValue c = lookupConstant(unit_, file_, X(base).name);
      std::int64_t k = X(idx[0]).number.i;
      if (c.is_tuple && k >= 0 && k < static_cast<std::int64_t>(c.tuple.size()))
        X(id).number = c.tuple[static_cast<std::size_t>(k)];
    }
    return id;
  }

  Shape sliceShape(const TypeInfo& base, const std::vector<int>& idx) const {
    if (!base.shape.rank_known) return {};
    Shape s;
    s.rank_known = true;
    for (std::size_t d = 0; d < base.shape.dims.size(); ++d) {
      if (d >= idx.size()) {
        s.dims.push_back(base.shape.dims[d]);
        continue;
      }
      const Expr& x = fn_.exprs[static_cast<std::size_t>(idx[d])];
      if (x.kind != ExprKind::Slice || x.args.size() != 3) return {};  // integer index: rank changes
      int start = x.args[0], stop = x.args[1], step = x.args[2];
      if (step >= 0 && !(fn_.exprs[static_cast<std::size_t>(step)].number.isInt() &&
                         fn_.exprs[static_cast<std::size_t>(step)].number.i == 1)) {
        s.dims.push_back(std::nullopt);
        continue;
      }
      Number lo = start < 0 ? Number::ofInt(0) : fn_.exprs[static_cast<std::size_t>(start)].number;
      Number hi = stop < 0 ? (base.shape.dims[d] ? Number::ofInt(*base.shape.dims[d]) : Number{})
                           : fn_.exprs[static_cast<std::size_t>(stop)].number;
      Number ext = applyBinary("-", hi, lo);
      if (!ext.isInt() && start >= 0 && stop >= 0) ext = symbolicExtent(start, stop);
      s.dims.push_back(ext.isInt() ? Dim(ext.i) : std::nullopt);
    }
    return s;
  }

  // `a == b` (and the other orderings) of two compile-time numbers, `not a`: the truth value as 1 / 0,
  // so an `if` on a module constant is known to take or skip its branch.
  void foldComparison(Expr& e) const {
    auto num = [&](int k) { return fn_.exprs[static_cast<std::size_t>(k)].number; };
    if (e.kind == ExprKind::UnaryOp && e.name == "not" && e.children.size() == 1 && num(e.children[0]).known()) {
      e.number = Number::ofInt(num(e.children[0]).asDouble() == 0 ? 1 : 0);
      return;
    }
    if (e.kind != ExprKind::Compare || e.children.size() != 2) return;
    if (std::optional<bool> holds = compareNumbers(e.name, num(e.children[0]), num(e.children[1])))
      e.number = Number::ofInt(*holds ? 1 : 0);
  }

  // stop - start of a slice whose bounds are not numbers but differ by one: both taken as linear
  // forms over the same unknowns (`k0 : k0 + C`, `qb + s * H : qb + (s + 1) * H` -> H).
  Number symbolicExtent(int start, int stop) const {
    std::map<std::string, std::int64_t> form;
    if (!linearForm(stop, 1, form, 0) || !linearForm(start, -1, form, 0)) return {};
    for (const auto& [atom, k] : form)
      if (!atom.empty() && k != 0) return {};
    return Number::ofInt(form[""]);
  }

  // Adds scale * e to `form` (atom text -> coefficient, "" the constant); false on overflow or depth.
  bool linearForm(int e, std::int64_t scale, std::map<std::string, std::int64_t>& form, int depth) const {
    if (e < 0 || depth > 32) return false;
    const Expr& x = fn_.exprs[static_cast<std::size_t>(e)];
    auto add = [&](const std::string& atom, std::int64_t k) {
      std::int64_t term = 0;
      return !__builtin_mul_overflow(scale, k, &term) && !__builtin_add_overflow(form[atom], term, &form[atom]);
    };
    if (x.number.isInt()) return add("", x.number.i);
    if (x.kind == ExprKind::BinOp && x.children.size() == 2 && (x.name == "+" || x.name == "-"))
      return linearForm(x.children[0], scale, form, depth + 1) &&
             linearForm(x.children[1], x.name == "-" ? -scale : scale, form, depth + 1);
    if (x.kind == ExprKind::BinOp && x.children.size() == 2 && x.name == "*") {
      for (int side = 0; side < 2; ++side) {
        const Number& k = fn_.exprs[static_cast<std::size_t>(x.children[static_cast<std::size_t>(side)])].number;
        std::int64_t scaled = 0;
        if (k.isInt() && !__builtin_mul_overflow(scale, k.i, &scaled))
          return linearForm(x.children[static_cast<std::size_t>(1 - side)], scaled, form, depth + 1);
      }
    }
    if (x.kind == ExprKind::UnaryOp && x.name == "-" && x.children.size() == 1)
      return linearForm(x.children[0], -scale, form, depth + 1);
    std::string atom;
    for (char c : fm_.text(x))
      if (c != ' ' && c != '\n' && c != '\t') atom += c;
    return add(atom, 1);
  }

  int sliceExpr(TSNode n, int stmt, int depth) {
    int parts[3] = {-1, -1, -1};
    int which = 0;
    for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
      TSNode c = ts_node_child(n, i);
      if (!ts_node_is_named(c)) {
        if (text(c) == ":") ++which;
        continue;
      }
      if (isComment(c) || which > 2) continue;
      parts[which] = expr(c, stmt, depth + 1);
    }
    int id = addExpr(ExprKind::Slice, n, stmt);
    X(id).args.assign(parts, parts + 3);
    for (int p : parts)
      if (p >= 0) {
        X(id).children.push_back(p);
        useChild(p, stmt);
      }
    return id;
  }

  // ------------------------------------------------------------ statements

  int addStmt(StmtKind kind, TSNode n, int parent, int depth) {
    Stmt s;
    s.kind = kind;
    s.loc = loc(n);
    s.begin = ts_node_start_byte(n);
    s.end = ts_node_end_byte(n);
    s.parent = parent;
    s.depth = depth;
    s.enclosing_loop = loops_.empty() ? -1 : loops_.back();
    s.incore = incore();
    s.region = region_;
    fn_.stmts.push_back(std::move(s));
    return static_cast<int>(fn_.stmts.size()) - 1;
  }

  Stmt& S(int s) { return fn_.stmts[static_cast<std::size_t>(s)]; }

  void close(int s) { S(s).subtree_end = static_cast<int>(fn_.stmts.size()); }

  void buildBlock(TSNode block, int parent, int depth) {
    if (isNull(block)) return;
    for (TSNode child : namedChildren(block)) buildStmt(child, parent, depth);
  }

  void buildStmt(TSNode n, int parent, int depth) {
    std::string_view t = nodeType(n);
    if (t == "comment") return;
    if (depth > kMaxNesting) {
      fm_.truncated = true;
      int s = addStmt(StmtKind::Unsupported, n, parent, depth);
      S(s).unsupported = "TooDeep";
      close(s);
      return;
    }
    if (t == "ERROR") {  // keep what parses inside half-written code
      for (TSNode c : namedChildren(n)) {
        std::string_view ct = nodeType(c);
        if (ct == "call") {
          int s = addStmt(StmtKind::Expr, c, parent, depth);
          S(s).value = expr(c, s, 0);
          close(s);
        } else if (ct.find("statement") != std::string_view::npos || ct == "ERROR") {
          buildStmt(c, parent, depth + 1);
        }
      }
      return;
    }
    if (t == "expression_statement") {
      TSNode e = ts_node_named_child(n, 0);
      if (isNull(e)) return;
      std::string_view et = nodeType(e);
      if (et == "assignment") return assignment(n, e, parent, depth);
      if (et == "augmented_assignment") return augAssignment(n, e, parent, depth);
      int s = addStmt(StmtKind::Expr, n, parent, depth);
      S(s).value = expr(e, s, 0);
      close(s);
      return;
    }
    if (t == "return_statement") {
      int s = addStmt(StmtKind::Return, n, parent, depth);
      TSNode v = ts_node_named_child(n, 0);
      if (!isNull(v) && !isComment(v)) {
        S(s).value = expr(v, s, 0);
        useChild(S(s).value, s);
      }
      close(s);
      return;
    }
    if (t == "pass_statement" || t == "break_statement" || t == "continue_statement") {
      int s = addStmt(t == "pass_statement" ? StmtKind::Pass : t == "break_statement" ? StmtKind::Break : StmtKind::Continue,
                      n, parent, depth);
      close(s);
      return;
    }
    if (t == "if_statement") return ifStatement(n, parent, depth);
    if (t == "for_statement") return forStatement(n, parent, depth);
    if (t == "while_statement") return whileStatement(n, parent, depth);
    if (t == "with_statement") return withStatement(n, parent, depth);
    int s = addStmt(StmtKind::Unsupported, n, parent, depth);
    std::string_view k = unsupportedStmtKind(t);
    S(s).unsupported = k.empty() ? std::string(t) : std::string(k);
    close(s);
  }

  // The type of the tensor a call of a DSL function passes for the callee's `k`-th Out / InOut
  // parameter (what the k-th element of the returned tuple is), or nullptr.
  const TypeInfo* outArgumentType(const Expr& call, std::size_t k) {
    if (call.callee_file < 0 || call.callee_function < 0) return nullptr;
    const Function& callee = unit_.files[static_cast<std::size_t>(call.callee_file)]
                                 .functions[static_cast<std::size_t>(call.callee_function)];
    if (!callee.isDsl()) return nullptr;
    std::size_t pos = 0, outs = 0;
    for (const Param& p : callee.params) {
      if (p.is_self) continue;
      if (p.direction != Direction::In && outs++ == k) {
        const TypeInfo* t = typeOf(fn_.arg(call, pos, p.name));
        return t && t->kind == ValueKind::Tensor ? t : nullptr;
      }
      ++pos;
    }
    return nullptr;
  }

  // Binds assignment targets to the value of `value_expr`; records subscript writes.
  void bindTargets(int target, int value_expr, int stmt) {
    bindTarget(target, value_expr >= 0 ? X(value_expr).value : -1, value_expr, stmt);
  }

  // Binds one target to value `v` (-1: unknown) produced by expression `src` (-1: none).
  void bindTarget(int target, int v, int src, int stmt) {
    if (target < 0) return;
    Expr& tx = X(target);
    if (tx.kind == ExprKind::Name) {
      // The target was built as a read; undo that use and bind instead.
      if (tx.value >= 0) {
        auto& uses = fn_.values[static_cast<std::size_t>(tx.value)].uses;
        if (!uses.empty() && uses.back() == stmt) uses.pop_back();
      }
      if (v >= 0 && fn_.values[static_cast<std::size_t>(v)].name.empty() &&
          fn_.values[static_cast<std::size_t>(v)].def_stmt == stmt) {
        fn_.values[static_cast<std::size_t>(v)].name = tx.name;  // the named result of this statement
      } else {
        TypeInfo ti = v >= 0 ? fn_.values[static_cast<std::size_t>(v)].type : TypeInfo{};
        bool on_chip = v >= 0 && fn_.values[static_cast<std::size_t>(v)].on_chip;
        v = newValue(tx.name, ti, stmt, src);
        fn_.values[static_cast<std::size_t>(v)].on_chip = on_chip;
      }
      if (src >= 0 && assign_count_[tx.name] == 1 && X(src).number.known())
        fn_.values[static_cast<std::size_t>(v)].number = X(src).number;
      tx.value = v;
      bind(tx.name, v, stmt);
      return;
    }
    if (tx.kind == ExprKind::Tuple || tx.kind == ExprKind::List) {
      const Expr* vx = src >= 0 ? &X(src) : nullptr;
      std::vector<int> kids = tx.children;
      bool elementwise = vx && (vx->kind == ExprKind::Tuple || vx->kind == ExprKind::List) &&
                         vx->children.size() == kids.size();
      for (std::size_t i = 0; i < kids.size(); ++i) {
        if (elementwise) {
          int e = X(src).children[i];
          bindTarget(kids[i], X(e).value, e, stmt);
        } else if (vx && vx->kind == ExprKind::Call && vx->pl_name == "yield_" && i < vx->args.size()) {
          int e = X(src).args[i];
          bindTarget(kids[i], X(e).value, e, stmt);
        } else if (vx && vx->kind == ExprKind::Call && vx->value >= 0) {
          // a, b = kernel(x, a, b): the i-th element is the tensor passed for the kernel's i-th Out /
          // InOut parameter; otherwise it takes the call's tensor-ness, nothing more.
          TypeInfo ti;
          if (const TypeInfo* out = outArgumentType(*vx, i)) {
            ti = *out;
          } else {
            ti.kind = fn_.values[static_cast<std::size_t>(vx->value)].type.kind;
          }
          ti.space = ti.kind == ValueKind::Tensor ? MemSpace::DDR : MemSpace::Unknown;
          bindTarget(kids[i], newValue("", ti, stmt, src), src, stmt);
        } else {
          bindTarget(kids[i], -1, src, stmt);
        }
      }
      return;
    }
    if (tx.kind == ExprKind::Subscript) {
      bool found = false;
      for (SubscriptAccess& a : fn_.subscripts)
        if (a.expr == target) {
          a.write = true;
          found = true;
        }
      if (!found && !tx.children.empty() && X(tx.children[0]).value >= 0)
        fn_.subscripts.push_back({stmt, target, X(tx.children[0]).value, true});
      // out[:] = v writes through the view: the view is not a value read here
      if (tx.value >= 0) {
        Value& view = fn_.values[static_cast<std::size_t>(tx.value)];
        view.on_chip = false;
        auto& uses = view.uses;
        uses.erase(std::remove(uses.begin(), uses.end(), stmt), uses.end());
      }
      return;
    }
  }

  void assignment(TSNode stmt_node, TSNode a, int parent, int depth) {
    int s = addStmt(StmtKind::Assign, stmt_node, parent, depth);
    TSNode right = childByField(a, "right");
    TSNode type = childByField(a, "type");
    // a = b = value: the innermost right side is the value, every left side a target.
    std::vector<TSNode> lefts{childByField(a, "left")};
    while (!isNull(right) && nodeType(right) == "assignment") {
      lefts.push_back(childByField(right, "left"));
      right = childByField(right, "right");
    }
    if (!isNull(right)) {
      S(s).value = expr(right, s, 0);
      useChild(S(s).value, s);
    }
    if (!isNull(type)) S(s).annotation = expr(unwrapType(type), s, 0);
    for (TSNode l : lefts) {
      int target = expr(l, s, 0);
      if (target < 0) continue;
      S(s).targets.push_back(target);
      bindTargets(target, S(s).value, s);
    }
    // a: pl.Tile[[64, 128], pl.FP32] = ...: the annotation fills what inference left unknown.
    if (S(s).annotation >= 0 && S(s).targets.size() == 1 && X(S(s).targets[0]).value >= 0) {
      TypeInfo ann = annotationType(S(s).annotation, nullptr, nullptr);
      Value& v = fn_.values[static_cast<std::size_t>(X(S(s).targets[0]).value)];
      if (ann.kind != ValueKind::Unknown) {
        if (v.type.kind == ValueKind::Unknown) v.type.kind = ann.kind;
        if (!v.type.shape.rank_known) v.type.shape = ann.shape;
        if (v.type.dtype == DType::Unknown) v.type.dtype = ann.dtype;
        if (v.type.space == MemSpace::Unknown) v.type.space = ann.space;
        if (v.type.kind == ValueKind::Tile) v.on_chip = true;
      }
    }
    close(s);
  }

  void augAssignment(TSNode stmt_node, TSNode a, int parent, int depth) {
    int s = addStmt(StmtKind::Unsupported, stmt_node, parent, depth);
    S(s).unsupported = "AugAssign";
    S(s).value = expr(childByField(a, "right"), s, 0);
    useChild(S(s).value, s);
    int target = expr(childByField(a, "left"), s, 0);  // read (x += 1 reads x)
    if (target >= 0) {
      S(s).targets.push_back(target);
      if (X(target).kind == ExprKind::Name) {
        const TypeInfo* old = typeOf(target);
        TypeInfo ti = old ? *old : TypeInfo{};
        int v = newValue(X(target).name, ti, s, target);
        fn_.values[static_cast<std::size_t>(v)].on_chip = ti.kind == ValueKind::Tile;
        bind(X(target).name, v, s);
      }
    }
    close(s);
  }

  void ifStatement(TSNode n, int parent, int depth) {
    int s = addStmt(StmtKind::If, n, parent, depth);
    S(s).value = expr(childByField(n, "condition"), s, 0);
    useChild(S(s).value, s);
    buildBlock(childByField(n, "consequence"), s, depth + 1);
    std::vector<TSNode> alternatives;
    for (TSNode c : namedChildren(n)) {
      if (nodeType(c) == "elif_clause" || nodeType(c) == "else_clause") alternatives.push_back(c);
    }
    buildAlternatives(alternatives, 0, s, depth + 1);
    close(s);
  }

  // else: / elif c: ... as an Else child of the If, an elif holding one nested If.
  void buildAlternatives(const std::vector<TSNode>& alts, std::size_t i, int if_stmt, int depth) {
    if (i >= alts.size()) return;
    if (depth > kMaxNesting) {
      fm_.truncated = true;
      int s = addStmt(StmtKind::Unsupported, alts[i], if_stmt, depth);
      S(s).unsupported = "TooDeep";
      close(s);
      return;
    }
    int e = addStmt(StmtKind::Else, alts[i], if_stmt, depth);
    if (nodeType(alts[i]) == "else_clause") {
      buildBlock(childByField(alts[i], "body"), e, depth + 1);
    } else {
      int inner = addStmt(StmtKind::If, alts[i], e, depth + 1);
      S(inner).value = expr(childByField(alts[i], "condition"), inner, 0);
      useChild(S(inner).value, inner);
      buildBlock(childByField(alts[i], "consequence"), inner, depth + 2);
      buildAlternatives(alts, i + 1, inner, depth + 2);
      close(inner);
    }
    close(e);
  }

  static LoopIter iterKind(const Expr& call, bool is_call, const std::unordered_map<std::string, int>& env) {
    if (!is_call) return LoopIter::Other;
    const std::string& pl = call.pl_name;
    if (pl == "range") return LoopIter::PlRange;
    if (pl == "parallel") return LoopIter::PlParallel;
    if (pl == "pipeline") return LoopIter::PlPipeline;
    if (pl == "spmd") return LoopIter::PlSpmd;
    if (pl == "unroll") return LoopIter::PlUnroll;
    if (pl == "while_") return LoopIter::PlWhile;
    if (pl == "split_aiv") return LoopIter::PlSplitAiv;
    if (pl.empty() && call.name == "range" && !env.count("range")) return LoopIter::PythonRange;
    return LoopIter::Other;
  }

  void forStatement(TSNode n, int parent, int depth) {
    int s = addStmt(StmtKind::For, n, parent, depth);
    Loop loop;
    loop.stmt = s;
    S(s).value = expr(childByField(n, "right"), s, 0);  // the iterator is evaluated outside the body
    useChild(S(s).value, s);
    if (S(s).value >= 0) {
      const Expr& it = X(S(s).value);
      loop.iter = iterKind(it, it.kind == ExprKind::Call, env_);
      if (it.kind == ExprKind::Call && loop.iter != LoopIter::Other) {
        std::vector<Number> pos;
        for (int a : it.args) pos.push_back(X(a).number);
        if (loop.iter == LoopIter::PlSpmd) {
          int core = fn_.arg(it, 0, "core_num");
          loop.start = Number::ofInt(0);
          loop.stop = core >= 0 ? X(core).number : Number{};
          loop.step = Number::ofInt(1);
        } else if (pos.size() == 1) {
          loop.start = Number::ofInt(0);
          loop.stop = pos[0];
          loop.step = Number::ofInt(1);
        } else if (pos.size() >= 2) {
          loop.start = pos[0];
          loop.stop = pos[1];
          loop.step = pos.size() >= 3 ? pos[2] : Number::ofInt(1);
        }
        if (loop.start.isInt() && loop.stop.isInt() && loop.step.isInt() && loop.step.i != 0) {
          std::int64_t span = loop.stop.i - loop.start.i;
          std::int64_t trips = loop.step.i > 0 ? (span + loop.step.i - 1) / loop.step.i
                                               : (span + loop.step.i + 1) / loop.step.i;
          loop.trip_count = std::max<std::int64_t>(0, trips);
        }
        for (const auto& [k, v] : it.kwargs) {
          if (k == "stage") loop.stage = X(v).number;
          else if (k == "init_values") loop.init_values = v;
        }
      }
    }
    S(s).loop = static_cast<int>(fn_.loops.size());
    fn_.loops.push_back(loop);
    loops_.push_back(s);
    int saved_region = region_;
    if (fn_.loops.back().iter == LoopIter::PlSpmd) {
      IncoreRegion r;
      r.kind = RegionKind::SpmdBody;
      r.stmt = s;
      r.first = s + 1;
      if (S(s).value >= 0 && X(S(s).value).kind == ExprKind::Call)
        for (const auto& [k, v] : X(S(s).value).kwargs)
          if (k == "name_hint" && X(v).kind == ExprKind::String) r.spmd_name_hint = X(v).name;
      region_ = static_cast<int>(fn_.regions.size());
      fn_.regions.push_back(r);
    }
    bindLoopTargets(childByField(n, "left"), s);
    buildBlock(childByField(n, "body"), s, depth + 1);
    TSNode alt = childByField(n, "alternative");
    if (!isNull(alt)) {
      int e = addStmt(StmtKind::Else, alt, s, depth + 1);
      buildBlock(childByField(alt, "body"), e, depth + 2);
      close(e);
    }
    loops_.pop_back();
    if (region_ != saved_region) fn_.regions[static_cast<std::size_t>(region_)].last = static_cast<int>(fn_.stmts.size());
    region_ = saved_region;
    close(s);
  }

  // for i, (a, b) in pl.range(..., init_values=(x, y)): i is the index, a and b are carried.
  void bindLoopTargets(TSNode left, int s) {
    if (isNull(left)) return;
    Loop& loop = fn_.loops[static_cast<std::size_t>(S(s).loop)];
    int target = addExpr(ExprKind::Other, left, s);
    S(s).targets.push_back(target);
    std::vector<int> init_elems;
    if (loop.init_values >= 0) init_elems = X(loop.init_values).children;
    auto bindName = [&](TSNode id, int init) {
      std::string name(text(id));
      TypeInfo ti;
      if (init >= 0) {
        if (const TypeInfo* it = typeOf(init)) ti = *it;
      } else {
        ti.kind = ValueKind::Scalar;
        ti.dtype = DType::Index;
      }
      int v = newValue(name, ti, s, -1);
      Value& val = fn_.values[static_cast<std::size_t>(v)];
      if (init >= 0) {
        val.loop_carried = true;
        val.carried_loop = s;
        if (const Value* src = fn_.valueOf(init)) val.on_chip = src->on_chip;
        fn_.loops[static_cast<std::size_t>(S(s).loop)].carried.push_back(name);
      } else {
        fn_.loops[static_cast<std::size_t>(S(s).loop)].targets.push_back(name);
      }
      env_[name] = v;
    };
    auto flatten = [&](TSNode n, auto& self, int init) -> void {
      std::string_view t = nodeType(n);
      if (t == "identifier") return bindName(n, init);
      if (t == "pattern_list" || t == "tuple_pattern" || t == "list_pattern" || t == "parenthesized_expression" ||
          t == "tuple") {
        for (TSNode c : namedChildren(n)) {
          if (isComment(c)) continue;
          self(c, self, init);
        }
      }
    };
    std::string_view lt = nodeType(left);
    bool has_carried = loop.init_values >= 0 && (lt == "pattern_list" || lt == "tuple_pattern");
    if (!has_carried) {
      if (loop.iter == LoopIter::PlWhile && loop.init_values >= 0) {
        // for (a, b) in pl.while_(init_values=(x, y)): everything is carried
        std::size_t k = 0;
        auto carried = [&](TSNode n, auto& self) -> void {
          if (nodeType(n) == "identifier") {
            bindName(n, k < init_elems.size() ? init_elems[k] : -1);
            ++k;
            return;
          }
          for (TSNode child : namedChildren(n)) self(child, self);
        };
        carried(left, carried);
        return;
      }
      flatten(left, flatten, -1);
      return;
    }
    // first element: the index (possibly a tuple), the rest: carried values matched to init_values
    uint32_t count = ts_node_named_child_count(left);
    bool index_done = false;
    std::size_t k = 0;
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(left, i);
      if (isComment(c)) continue;
      if (!index_done) {
        flatten(c, flatten, -1);
        index_done = true;
        continue;
      }
      auto carried = [&](TSNode n, auto& self) -> void {
        if (nodeType(n) == "identifier") {
          bindName(n, k < init_elems.size() ? init_elems[k] : -1);
          ++k;
          return;
        }
        for (TSNode child : namedChildren(n)) self(child, self);
      };
      carried(c, carried);
    }
  }

  void whileStatement(TSNode n, int parent, int depth) {
    int s = addStmt(StmtKind::While, n, parent, depth);
    S(s).value = expr(childByField(n, "condition"), s, 0);
    useChild(S(s).value, s);
    Loop loop;
    loop.stmt = s;
    loop.iter = LoopIter::PythonWhile;
    S(s).loop = static_cast<int>(fn_.loops.size());
    fn_.loops.push_back(loop);
    loops_.push_back(s);
    buildBlock(childByField(n, "body"), s, depth + 1);
    loops_.pop_back();
    close(s);
  }

  void withStatement(TSNode n, int parent, int depth) {
    int s = addStmt(StmtKind::Scope, n, parent, depth);
    Scope scope;
    scope.stmt = s;
    TSNode clause{};
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
      if (nodeType(ts_node_named_child(n, i)) == "with_clause") clause = ts_node_named_child(n, i);
    TSNode item = isNull(clause) ? TSNode{} : ts_node_named_child(clause, 0);
    TSNode value = isNull(item) ? TSNode{} : childByField(item, "value");
    if (!isNull(value) && nodeType(value) == "as_pattern") {
      TSNode alias = childByField(value, "alias");
      if (!isNull(alias)) scope.as_name = std::string(text(alias));
      value = ts_node_named_child(value, 0);
    }
    if (!isNull(value)) {
      scope.call = expr(value, s, 0);
      S(s).value = scope.call;
      useChild(scope.call, s);
    }
    if (scope.call >= 0 && X(scope.call).kind == ExprKind::Call) describeScope(scope);
    // further with-items (with a, b:) are evaluated too
    for (uint32_t i = 1; !isNull(clause) && i < ts_node_named_child_count(clause); ++i) {
      TSNode v = childByField(ts_node_named_child(clause, i), "value");
      if (!isNull(v)) useChild(expr(v, s, 0), s);
    }
    S(s).scope = static_cast<int>(fn_.scopes.size());
    bool opens_region = (scope.kind == ScopeKind::At && (scope.level.empty() || scope.level == "CORE_GROUP")) ||
                        scope.kind == ScopeKind::Spmd;
    fn_.scopes.push_back(scope);
    if (!scope.as_name.empty()) {
      TypeInfo ti;
      ti.kind = ValueKind::Scalar;
      env_[scope.as_name] = newValue(scope.as_name, ti, s, scope.call);
    }
    int saved_region = region_;
    if (opens_region) {
      IncoreRegion r;
      r.kind = scope.kind == ScopeKind::At ? RegionKind::AtScope : RegionKind::SpmdBody;
      r.scope = S(s).scope;
      r.stmt = s;
      r.first = s + 1;
      region_ = static_cast<int>(fn_.regions.size());
      fn_.regions.push_back(r);
    }
    buildBlock(childByField(n, "body"), s, depth + 1);
    if (region_ != saved_region) fn_.regions[static_cast<std::size_t>(region_)].last = static_cast<int>(fn_.stmts.size());
    region_ = saved_region;
    close(s);
  }

  void describeScope(Scope& scope) {
    const Expr& call = X(scope.call);
    const std::string& pl = call.pl_name;
    // pl.incore() / pl.auto_incore(), retired (DSL124), meant a pl.at(CORE_GROUP) scope: modelled as one,
    // so the rules after DSL124 do not see its body as orchestration code.
    scope.kind = pl == "at" || pl == "incore" || pl == "auto_incore" ? ScopeKind::At
                 : pl == "spmd"      ? ScopeKind::Spmd
                 : pl == "cluster"   ? ScopeKind::Cluster
                 : pl == "split_aiv" ? ScopeKind::SplitAiv
                                     : ScopeKind::Other;
    int level = fn_.arg(call, 0, "level");
    if (level >= 0) {
      std::string_view lv = X(level).pl_name;
      if (lv.rfind("Level.", 0) == 0) scope.level = std::string(lv.substr(6));
      else scope.level = std::string(fm_.text(X(level)));
    }
    for (const auto& [k, v] : call.kwargs) {
      if (k == "name_hint" && X(v).kind == ExprKind::String) {
        scope.name_hint = X(v).name;
        scope.has_name_hint = true;
      } else if (k == "optimizations" || k == "optimization") {
        std::vector<int> entries = (X(v).kind == ExprKind::List || X(v).kind == ExprKind::Tuple) ? X(v).children
                                                                                                 : std::vector<int>{v};
        for (int o : entries) {
          const Expr& oe = X(o);
          std::string name = oe.kind == ExprKind::Call ? oe.pl_name : oe.pl_name;
          if (name.empty()) name = std::string(fm_.text(oe));
          if (name.rfind("optimizations.", 0) == 0) name = name.substr(14);
          scope.optimizations.push_back(name);
          if (oe.kind != ExprKind::Call) continue;
          if (name == "split") {
            int mode = fn_.arg(oe, 0, "mode");
            if (mode >= 0) {
              std::string_view m = X(mode).pl_name;
              scope.split_mode = m.rfind("SplitMode.", 0) == 0 ? std::string(m.substr(10)) : std::string(fm_.text(X(mode)));
            }
            int slots = fn_.arg(oe, 99, "slot_num");
            if (slots >= 0) scope.cross_core_slots = X(slots).number;
          } else if (name == "cross_core_slot") {
            int slots = fn_.arg(oe, 99, "slot_num");
            if (slots >= 0) scope.cross_core_slots = X(slots).number;
          }
        }
      }
    }
  }
};

}  // namespace

namespace {

// A plain Python function (golden code, a test driver, a config helper) is not compiled, so it gets no
// signature or body; constants it computes are interpreted from its syntax tree (function_eval.cpp).
bool modelled(const Unit& unit, int file, std::size_t function) {
  return unit.files[static_cast<std::size_t>(file)].functions[function].isDsl();
}

}  // namespace

void buildSignatures(Unit& unit, int file) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  for (std::size_t i = 0; i < s.function_nodes.size(); ++i) {
    if (!modelled(unit, file, i)) continue;
    BuilderScopeGuard locals(unit, file, static_cast<int>(i));
    BodyBuilder(unit, file, static_cast<int>(i)).buildSignature(s.function_nodes[i]);
  }
}

void buildBodies(Unit& unit, int file) {
  FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  for (std::size_t i = 0; i < s.function_nodes.size(); ++i) {
    if (!modelled(unit, file, i)) continue;
    BuilderScopeGuard locals(unit, file, static_cast<int>(i));
    BodyBuilder(unit, file, static_cast<int>(i)).buildBody(s.function_nodes[i]);
  }
}

namespace {

// The unit's function a call resolves to, or nullptr.
const Function* calleeIn(const Unit& unit, const Expr& call) {
  if (call.callee_file < 0 || call.callee_function < 0) return nullptr;
  return &unit.files[static_cast<std::size_t>(call.callee_file)].functions[static_cast<std::size_t>(call.callee_function)];
}

}  // namespace

void rebuildFunction(Unit& unit, int file, int function, bool inlined_into_kernel) {
  Function& fn = unit.files[static_cast<std::size_t>(file)].functions[static_cast<std::size_t>(function)];
  Function fresh;
  fresh.name = fn.name;
  fresh.class_name = fn.class_name;
  fresh.in_program = fn.in_program;
  fresh.kind = fn.kind;
  fresh.loc = fn.loc;
  fresh.name_loc = fn.name_loc;
  fresh.last_line = fn.last_line;
  fresh.decorators = fn.decorators;
  fn = std::move(fresh);
  TSNode def = unit.scans[static_cast<std::size_t>(file)].function_nodes[static_cast<std::size_t>(function)];
  BuilderScopeGuard locals(unit, file, function);
  BodyBuilder(unit, file, function).buildSignature(def);
  BodyBuilder(unit, file, function).buildBody(def, inlined_into_kernel);
}

bool specialiseCalleesFromCallers(Unit& unit) {
  std::set<std::pair<int, int>> changed;
  for (const FileModel& fm : unit.files)
    for (const Function& fn : fm.functions)
      for (int c : fn.calls) {
        const Expr& call = fn.exprs[static_cast<std::size_t>(c)];
        const Function* resolved = calleeIn(unit, call);
        if (!resolved || !resolved->isDsl() || resolved == &fn) continue;
        const Function& callee = *resolved;
        auto& slots = unit.specialised[{call.callee_file, call.callee_function}];
        std::size_t first = (!callee.params.empty() && callee.params.front().is_self) ? 1 : 0;
        for (std::size_t i = 0; i < call.args.size() && first + i < callee.params.size(); ++i) {
          const Param& p = callee.params[first + i];
          bool bare = (p.type.kind == ValueKind::Tensor || !p.has_annotation) && p.type.dtype == DType::Unknown;
          if (!bare) continue;
          const Value* v = fn.valueOf(call.args[i]);
          if (!v || v->type.kind != ValueKind::Tensor || v->type.dtype == DType::Unknown) continue;
          if (slots.size() < callee.params.size()) slots.resize(callee.params.size());
          if (slots[first + i]) continue;  // the first caller's type wins
          slots[first + i] = v->type;
          changed.insert({call.callee_file, call.callee_function});
        }
      }
  for (const auto& [file, function] : changed) rebuildFunction(unit, file, function, false);
  return !changed.empty();
}

void buildInlinedBodies(Unit& unit) {
  // Inline functions called from incore code and never from host code are rebuilt as incore code,
  // which may put further inline calls in incore code: repeated until nothing changes (bounded).
  std::vector<std::vector<char>> rebuilt(unit.files.size());
  for (std::size_t f = 0; f < unit.files.size(); ++f) rebuilt[f].assign(unit.files[f].functions.size(), 0);
  for (int round = 0; round < 8; ++round) {
    std::vector<std::vector<int>> from_kernel(unit.files.size()), from_host(unit.files.size());
    for (std::size_t f = 0; f < unit.files.size(); ++f) {
      from_kernel[f].assign(unit.files[f].functions.size(), 0);
      from_host[f].assign(unit.files[f].functions.size(), 0);
    }
    for (const FileModel& fm : unit.files)
      for (const Function& fn : fm.functions)
        for (int c : fn.calls) {
          const Expr& call = fn.exprs[static_cast<std::size_t>(c)];
          const Function* callee = calleeIn(unit, call);
          if (!callee || !callee->isInline() || callee == &fn) continue;
          bool incore = call.stmt >= 0 && fn.stmts[static_cast<std::size_t>(call.stmt)].incore;
          (incore ? from_kernel : from_host)[static_cast<std::size_t>(call.callee_file)]
                                            [static_cast<std::size_t>(call.callee_function)] = 1;
        }
    bool changed = false;
    for (std::size_t f = 0; f < unit.files.size(); ++f)
      for (std::size_t i = 0; i < unit.files[f].functions.size(); ++i) {
        if (rebuilt[f][i] || !from_kernel[f][i] || from_host[f][i]) continue;
        if (!unit.files[f].functions[i].scopes.empty()) continue;  // holds kernels of its own: host code
        rebuildFunction(unit, static_cast<int>(f), static_cast<int>(i), true);
        rebuilt[f][i] = 1;
        changed = true;
      }
    if (!changed) break;
  }
}

}  // namespace portcheck::dsl::detail

// Compile-time records: model configurations written as dataclass (or NamedTuple) instances,
//
//   @dataclass(frozen=True)
//   class Config:
//       hidden_size: int
//       rms_norm_eps: float = 1e-6
//       @property
//       def nope_head_dim(self) -> int: return self.head_dim - self.qk_rope_head_dim
//   FLASH = Config(hidden_size=4096, head_dim=512, qk_rope_head_dim=64)
//
// and read as `M.hidden_size` after `from config import FLASH as M`, as pypto-lib's models do.
// Also: a module's name an importer set before importing its readers (importerSetValue).
#include <string>

#include "dsl/const_eval.h"
#include "dsl/model_builder.h"

namespace portcheck::dsl::detail {

namespace {

struct ClassDef {
  int file = -1;
  TSNode node{};
  bool record = false;  // @dataclass / NamedTuple: constructor keywords are its fields
};

// The module-level class `name` of `file`, following a from-import of a sibling file.
ClassDef findClass(const Unit& unit, int file, const std::string& name, int depth = 0) {
  ClassDef out;
  if (file < 0 || depth > 8) return out;
  const FileScan& s = unit.scans[static_cast<std::size_t>(file)];
  TSNode root = s.tree.root();
  if (isNull(root)) return out;
  for (TSNode c : namedChildren(root)) {
    TSNode def = c;
    bool dataclass = false;
    if (nodeType(c) == "decorated_definition") {
      for (TSNode d : namedChildren(c))
        if (nodeType(d) == "decorator" && textOf(unit, file, d).find("dataclass") != std::string_view::npos)
          dataclass = true;
      def = childByField(c, "definition");
    }
    if (isNull(def) || nodeType(def) != "class_definition") continue;
    if (textOf(unit, file, childByField(def, "name")) != name) continue;
    TSNode bases = childByField(def, "superclasses");
    bool named_tuple = !isNull(bases) && textOf(unit, file, bases).find("NamedTuple") != std::string_view::npos;
    return {file, def, dataclass || named_tuple};
  }
  auto b = s.bindings.find(name);
  if (b != s.bindings.end() && b->second.kind == Binding::Kind::Name)
    return findClass(unit, b->second.file, b->second.name, depth + 1);
  return out;
}

// The statements of a class body (unwrapping decorated definitions).
std::vector<TSNode> bodyOf(TSNode class_def) {
  TSNode body = childByField(class_def, "body");
  return isNull(body) ? std::vector<TSNode>{} : namedChildren(body);
}

// `name: T = value` / `name = value` in the class body: the default's node.
TSNode classDefault(const Unit& unit, const ClassDef& cls, std::string_view name) {
  for (TSNode stmt : bodyOf(cls.node)) {
    if (nodeType(stmt) != "expression_statement") continue;
    TSNode a = ts_node_named_child(stmt, 0);
    if (isNull(a) || nodeType(a) != "assignment") continue;
    if (textOf(unit, cls.file, childByField(a, "left")) != name) continue;
    return childByField(a, "right");
  }
  return TSNode{};
}

// The expression `return <expr>` of a one-statement @property `name` of the class.
TSNode propertyReturn(const Unit& unit, const ClassDef& cls, std::string_view name) {
  for (TSNode stmt : bodyOf(cls.node)) {
    if (nodeType(stmt) != "decorated_definition") continue;
    bool property = false;
    for (TSNode d : namedChildren(stmt))
      if (nodeType(d) == "decorator" && textOf(unit, cls.file, d) == "@property") property = true;
    TSNode def = childByField(stmt, "definition");
    if (!property || isNull(def) || textOf(unit, cls.file, childByField(def, "name")) != name) continue;
    for (TSNode s : bodyOf(def))
      if (nodeType(s) == "return_statement") return ts_node_named_child(s, 0);
  }
  return TSNode{};
}

}  // namespace

ConstValue evalRecordCall(Unit& unit, int file, TSNode call, int depth) {
  ConstValue out;
  if (depth > kMaxNesting) return out;
  TSNode callee = childByField(call, "function");
  if (isNull(callee) || nodeType(callee) != "identifier") return out;
  ClassDef cls = findClass(unit, file, std::string(textOf(unit, file, callee)));
  if (!cls.record) return out;
  auto record = std::make_shared<RecordValue>();
  record->file = cls.file;
  record->class_name = std::string(textOf(unit, cls.file, childByField(cls.node, "name")));
  TSNode args = childByField(call, "arguments");
  for (TSNode a : isNull(args) ? std::vector<TSNode>{} : namedChildren(args)) {
    if (nodeType(a) != "keyword_argument") continue;  // positional fields are not modelled
    std::string name(textOf(unit, file, childByField(a, "name")));
    record->fields.emplace_back(std::move(name), evalNode(unit, file, childByField(a, "value"), depth + 1));
  }
  out.record = std::move(record);
  return out;
}

ConstValue evalAttribute(Unit& unit, int file, TSNode attribute, int depth) {
  ConstValue out;
  if (depth > kMaxNesting) return out;
  TSNode object = childByField(attribute, "object");
  std::string attr(textOf(unit, file, childByField(attribute, "attribute")));
  if (isNull(object)) return out;
  // `config.D` with `import config`: the module-level name of that file.
  if (nodeType(object) == "identifier") {
    const FileScan& s = unit.scans[static_cast<std::size_t>(file)];
    auto b = s.bindings.find(std::string(textOf(unit, file, object)));
    if (b != s.bindings.end() && b->second.kind == Binding::Kind::Module) {
      bool set = false;
      ConstValue v = importerSetValue(unit, file, b->second.file, attr, ts_node_start_byte(attribute), set, depth + 1);
      if (set) return v;
      return lookupConstant(unit, b->second.file, attr, depth + 1);
    }
  }
  ConstValue base = evalNode(unit, file, object, depth + 1);
  if (!base.record) return out;
  if (const ConstValue* v = base.record->field(attr)) return *v;
  ClassDef cls = findClass(unit, base.record->file, base.record->class_name);
  if (isNull(cls.node)) return out;
  if (TSNode d = classDefault(unit, cls, attr); !isNull(d)) return evalNode(unit, cls.file, d, depth + 1);
  if (TSNode r = propertyReturn(unit, cls, attr); !isNull(r)) {
    const ConstValue* saved = unit.self_record;
    unit.self_record = &base;
    out = evalNode(unit, cls.file, r, depth + 1);
    unit.self_record = saved;
  }
  return out;
}

// ---------------------------------------------------------------- names set by an importer
// A module's name as set by a module importing it (`config.SPARSE_TOPK_EFF = WIN` at module level,
// before `from decode_sparse_attn import sparse_attn`, which reads `config.SPARSE_TOPK_EFF` at its
// import): Python runs the importer's assignment first, so the module imported after it reads the
// value set, not the one its own file gives.
namespace importer_sets_impl {  // named: a unity batch holds other files' helpers

// Whether module file `setter` imports module file `reader` by a statement above line `line` (the
// reader then ran its reads before the set).
bool importsBefore(const Unit& unit, int setter, int reader, int line) {
  const FileScan& s = unit.scans[static_cast<std::size_t>(setter)];
  const FileModel& fm = unit.files[static_cast<std::size_t>(setter)];
  for (const Import& imp : fm.imports) {
    if (imp.loc.line >= line) continue;
    auto b = s.bindings.find(imp.alias);
    if (b != s.bindings.end() && b->second.file == reader) return true;
  }
  return false;
}

}  // namespace importer_sets_impl

ConstValue importerSetValue(Unit& unit, int reader, int module, const std::string& name, std::uint32_t at,
                            bool& found, int depth) {
  found = false;
  if (depth > kMaxNesting || reader < 0 || module < 0) return {};
  const ModuleAttributeSet* chosen = nullptr;
  int chosen_file = -1;
  bool differ = false;  // other modules set it to different values
  for (std::size_t f = 0; f < unit.scans.size(); ++f) {
    const FileScan& s = unit.scans[f];
    for (const ModuleAttributeSet& a : s.attribute_sets) {
      if (a.name != name) continue;
      auto b = s.bindings.find(a.object);
      if (b == s.bindings.end() || b->second.kind != Binding::Kind::Module || b->second.file != module) continue;
      const int setter = static_cast<int>(f);
      if (setter == reader) {
        // The reader's own set above the read; its latest one wins over any other module's.
        if (at < a.end) continue;
        if (chosen_file != reader || a.end > chosen->end) {
          chosen = &a;
          chosen_file = reader;
        }
        continue;
      }
      // Another module's set, made before that module imported the reader.
      if (chosen_file == reader || importer_sets_impl::importsBefore(unit, setter, reader, a.loc.line)) continue;
      if (chosen && chosen->text != a.text) differ = true;
      chosen = &a;
      chosen_file = setter;
    }
  }
  // Two importers set it differently: which one ran last is not known here.
  if (differ && chosen_file != reader) return {};
  if (!chosen) return {};
  // The value is evaluated where it was written, at module level (no function's locals).
  const auto* saved = unit.locals;
  unit.locals = nullptr;
  ConstValue v = evalNode(unit, chosen_file, chosen->value, depth + 1);
  unit.locals = saved;
  found = true;
  return v;
}


}  // namespace portcheck::dsl::detail

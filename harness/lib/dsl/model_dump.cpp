#include "dsl/model_dump.h"

#include <algorithm>
#include <sstream>

namespace portcheck::dsl {

namespace {

std::string_view stmtKindName(StmtKind k) {
  switch (k) {
    case StmtKind::Expr: return "expr";
    case StmtKind::Assign: return "assign";
    case StmtKind::Return: return "return";
    case StmtKind::For: return "for";
    case StmtKind::While: return "while";
    case StmtKind::If: return "if";
    case StmtKind::Else: return "else";
    case StmtKind::Scope: return "with";
    case StmtKind::Pass: return "pass";
    case StmtKind::Break: return "break";
    case StmtKind::Continue: return "continue";
    case StmtKind::Unsupported: return "unsupported";
  }
  return "?";
}

std::string typeStr(const TypeInfo& t) {
  std::string s(valueKindName(t.kind));
  if (t.kind == ValueKind::Tensor || t.kind == ValueKind::Tile) {
    s += t.shape.str() + " " + std::string(dtypeName(t.dtype)) + " " + std::string(memSpaceName(t.space));
    if (auto b = t.bytes()) s += " " + std::to_string(*b) + "B";
  }
  return s;
}

std::string numStr(const Number& n) {
  if (n.isInt()) return std::to_string(n.i);
  if (n.known()) {
    std::ostringstream o;
    o << n.f;
    return o.str();
  }
  return "?";
}

}  // namespace

std::string dumpFileModel(const FileModel& fm) {
  std::ostringstream o;
  o << "file " << fm.path << (fm.syntax_error ? " (syntax error)" : "") << (fm.truncated ? " (truncated)" : "") << "\n";
  for (const PlAlias& a : fm.pl_aliases) o << "alias " << a.alias << " = " << a.module << " @" << a.loc.line << "\n";
  for (const Constant& c : fm.constants) {
    o << "const " << c.name << " = ";
    if (c.is_tuple) {
      o << "(";
      for (std::size_t i = 0; i < c.tuple.size(); ++i) o << (i ? ", " : "") << numStr(c.tuple[i]);
      o << ")";
    } else {
      o << numStr(c.value);
    }
    o << (c.imported ? " (imported)" : "") << "\n";
  }
  for (const Function& fn : fm.functions) {
    o << "function " << (fn.class_name.empty() ? "" : fn.class_name + ".") << fn.name << " ["
      << functionKindName(fn.kind) << "] @" << fn.loc.line << "\n";
    for (const Param& p : fn.params)
      o << "  param " << p.name << ": " << typeStr(p.type) << " " << directionName(p.direction) << "\n";
    for (std::size_t i = 0; i < fn.regions.size(); ++i) {
      const IncoreRegion& r = fn.regions[i];
      o << "  region " << i << " stmts [" << r.first << "," << r.last << ") kernel " << r.kernel_name << "\n";
    }
    for (std::size_t i = 0; i < fn.stmts.size(); ++i) {
      const Stmt& s = fn.stmts[i];
      o << "  " << i << ":" << std::string(static_cast<std::size_t>(s.depth) * 2, ' ') << stmtKindName(s.kind);
      if (s.kind == StmtKind::Unsupported) o << "(" << s.unsupported << ")";
      if (s.loop >= 0) {
        const Loop& l = fn.loops[static_cast<std::size_t>(s.loop)];
        o << " " << loopIterName(l.iter) << " " << numStr(l.start) << ".." << numStr(l.stop) << " step " << numStr(l.step);
        if (l.stage.known()) o << " stage " << numStr(l.stage);
      }
      if (s.scope >= 0) {
        const Scope& sc = fn.scopes[static_cast<std::size_t>(s.scope)];
        o << " scope level=" << sc.level << " hint=" << sc.name_hint;
        for (const std::string& opt : sc.optimizations) o << " opt=" << opt;
        if (!sc.split_mode.empty()) o << " split=" << sc.split_mode;
      }
      if (s.incore) o << " [incore r" << s.region << "]";
      std::string_view src = fm.text(s.begin, s.end);
      o << " @" << s.loc.line << "  " << src.substr(0, std::min<std::size_t>(60, src.find('\n'))) << "\n";
    }
    for (std::size_t i = 0; i < fn.values.size(); ++i) {
      const Value& v = fn.values[i];
      auto [first, last] = fn.liveRange(static_cast<int>(i));
      o << "  value " << i << " " << (v.name.empty() ? "_" : v.name) << ": " << typeStr(v.type)
        << (v.on_chip ? " on-chip" : "") << (v.loop_carried ? " carried" : "") << " def " << v.def_stmt << " live ["
        << first << "," << last << "]\n";
    }
    for (int c : fn.calls) {
      const Expr& e = fn.exprs[static_cast<std::size_t>(c)];
      o << "  call " << (e.pl_name.empty() ? e.name : "pl:" + e.pl_name) << " @" << e.loc.line << ":" << e.loc.col;
      if (e.callee_function >= 0) o << " -> file " << e.callee_file << " fn " << e.callee_function;
      o << "\n";
    }
  }
  return o.str();
}

}  // namespace portcheck::dsl

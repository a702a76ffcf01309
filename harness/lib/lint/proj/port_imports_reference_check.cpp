#include "lint/proj/port_imports_reference_check.h"

#include <filesystem>
#include <set>

#include "core/text.h"
#include "lint/proj/golden_source.h"
#include "parse/parse_cache.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

namespace fs = std::filesystem;

// The modules original/ holds: its .py files and its packages, by the name an import gives them.
std::set<std::string> referenceModules(const fs::path& original) {
  std::set<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(original, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    std::error_code ec2;
    if (it->is_regular_file(ec2) && p.extension() == ".py") names.insert(p.stem().string());
    else if (it->is_directory(ec2) && !isSkippedDirectory(p.filename().string())) names.insert(p.filename().string());
  }
  return names;
}

std::vector<std::string> dottedParts(std::string_view module) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t dot = module.find('.', start);
    parts.emplace_back(trim(module.substr(start, dot == std::string_view::npos ? dot : dot - start)));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

// A path written as a string that goes through a folder named original ("../original", "original/x.py").
bool namesOriginalFolder(std::string_view path) {
  std::size_t start = 0;
  for (;;) {
    std::size_t sep = path.find_first_of("/\\", start);
    if (path.substr(start, sep == std::string_view::npos ? sep : sep - start) == "original") return true;
    if (sep == std::string_view::npos) return false;
    start = sep + 1;
  }
}

class ReferenceImportScan {
 public:
  ReferenceImportScan(const SourceFile& file, const std::set<std::string>& reference, const std::set<std::string>& local)
      : file_(file), reference_(reference), local_(local) {}

  // (node, why) of every statement that reaches the reference, once per line.
  std::vector<std::pair<TSNode, std::string>> scan(TSNode root) {
    proj::forEachNode(root, [&](TSNode n) {
      std::string_view t = nodeType(n);
      if (t == "import_statement") importStatement(n);
      else if (t == "import_from_statement") importFrom(n);
      else if (t == "call") call(n);
      else if (t == "binary_operator" && text(childByField(n, "operator")) == "/") pathJoin(n, childByField(n, "right"));
    });
    return std::move(found_);
  }

 private:
  std::string_view text(TSNode n) const {
    std::uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (isNull(n) || e < b || e > file_.text.size()) return {};
    return std::string_view(file_.text).substr(b, e - b);
  }

  void report(TSNode at, std::string why) {
    int line = static_cast<int>(ts_node_start_point(at).row);
    if (!lines_.insert(line).second) return;
    found_.emplace_back(at, std::move(why));
  }

  // Why importing `module` (with `level` leading dots) reaches the reference; "" when it does not.
  std::string classify(std::string_view module, int level) const {
    if (module.empty()) return {};
    std::vector<std::string> parts = dottedParts(module);
    if (parts[0] == "golden") return "imports golden.py, the port's oracle";
    for (const std::string& p : parts)
      if (p == "original") return "imports from original/, the reference the golden uses";
    if (level == 0 && reference_.count(parts[0]) && !local_.count(parts[0]))
      return "imports '" + parts[0] + "', the reference in original/";
    return {};
  }

  void importStatement(TSNode n) {
    for (TSNode c : namedChildren(n)) {
      TSNode name = nodeType(c) == "aliased_import" ? childByField(c, "name") : c;
      if (nodeType(name) != "dotted_name") continue;
      if (std::string why = classify(text(name), 0); !why.empty()) return report(n, why);
    }
  }

  void importFrom(TSNode n) {
    TSNode module = childByField(n, "module_name");
    int level = 0;
    std::string_view dotted;
    if (nodeType(module) == "relative_import") {
      for (TSNode c : namedChildren(module)) {
        if (nodeType(c) == "import_prefix") level = static_cast<int>(text(c).size());
        if (nodeType(c) == "dotted_name") dotted = text(c);
      }
    } else {
      dotted = text(module);
    }
    if (std::string why = classify(dotted, level); !why.empty()) return report(n, why);
    if (!dotted.empty()) return;
    // from . import golden
    for (TSNode c : namedChildren(n)) {
      if (ts_node_eq(c, module)) continue;
      TSNode name = nodeType(c) == "aliased_import" ? childByField(c, "name") : c;
      if (nodeType(name) != "dotted_name") continue;
      if (std::string why = classify(text(name), level); !why.empty()) return report(n, why);
    }
  }

  std::optional<std::string> stringArg(TSNode args, std::size_t index) const {
    std::size_t i = 0;
    for (TSNode a : namedChildren(args)) {
      if (isComment(a) || nodeType(a) == "keyword_argument") continue;
      if (i++ == index) return proj::stringLiteralValue(a, file_.text);
    }
    return std::nullopt;
  }

  bool anyStringNamesOriginal(TSNode n) const {
    bool hit = false;
    proj::forEachNode(n, [&](TSNode x) {
      if (hit || nodeType(x) != "string") return;
      if (std::optional<std::string> s = proj::stringLiteralValue(x, file_.text); s && namesOriginalFolder(*s)) hit = true;
    });
    return hit;
  }

  void call(TSNode n) {
    std::string_view callee = text(childByField(n, "function"));
    TSNode args = childByField(n, "arguments");
    if (callee == "importlib.import_module" || callee == "import_module" || callee == "__import__") {
      if (std::optional<std::string> m = stringArg(args, 0))
        if (std::string why = classify(*m, 0); !why.empty()) report(n, why);
      return;
    }
    if (endsWith(callee, "spec_from_file_location") || endsWith(callee, "run_path") || endsWith(callee, "SourceFileLoader")) {
      bool hit = false;
      proj::forEachNode(args, [&](TSNode x) {
        if (hit || nodeType(x) != "string") return;
        std::optional<std::string> s = proj::stringLiteralValue(x, file_.text);
        if (s && (namesOriginalFolder(*s) || *s == "golden.py" || endsWith(*s, "/golden.py"))) hit = true;
      });
      if (hit) report(n, "loads golden.py or a file of original/ by path");
      return;
    }
    if (startsWith(callee, "sys.path.") && anyStringNamesOriginal(args)) {
      report(n, "puts original/ on sys.path, to import the reference the golden uses");
      return;
    }
    if (callee == "os.path.join" || endsWith(callee, ".joinpath")) pathJoin(n, args);
  }

  // Path(...) / "original", os.path.join(..., "original"): a path into original/.
  void pathJoin(TSNode n, TSNode part) {
    if (!isNull(part) && anyStringNamesOriginal(part)) report(n, "builds a path into original/, the reference the golden uses");
  }

  const SourceFile& file_;
  const std::set<std::string>& reference_;
  const std::set<std::string>& local_;
  std::set<int> lines_;
  std::vector<std::pair<TSNode, std::string>> found_;
};

}  // namespace

void PortImportsReferenceCheck::check(const Workspace& ws, const Project& project, std::span<const SourceFile> sources,
                                      std::vector<Diagnostic>& out) const {
  if (sources.empty()) return;
  const std::string src_dir = ws.relative(project.pypto_src);
  const std::string golden = goldenPathIn(src_dir);
  const std::set<std::string> reference = referenceModules(project.dir / "original");
  // Modules the port's own imports find first: its own files, and the pypto-lib blocks of its unit.
  std::set<std::string> local;
  for (const SourceFile& f : sources)
    if (isPythonSource(fs::path(f.path))) local.insert(fs::path(f.path).stem().string());
  for (const SourceFile& f : sources) {
    if (f.path == golden || !startsWith(f.path, src_dir + "/") || !isPythonSource(fs::path(f.path))) continue;
    SyntaxTree tree = parsePythonShared(f.text);
    if (!tree.ok()) continue;
    for (auto& [node, why] : ReferenceImportScan(f, reference, local).scan(tree.root())) {
      TSPoint p = ts_node_start_point(node);
      out.push_back(makeDiagnostic(id(), f.path, static_cast<int>(p.row) + 1, f.column(p.row, p.column),
                                   fs::path(f.path).filename().string() + " " + why +
                                       ": a port that calls the reference passes its golden without computing anything "
                                       "on the device"));
    }
  }
}

}  // namespace portcheck

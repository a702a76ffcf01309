#include "dsl/local_imports.h"

#include <algorithm>
#include <array>
#include <deque>
#include <set>
#include <system_error>
#include <unordered_map>

#include "parse/parse_cache.h"

namespace portcheck::dsl {

namespace fs = std::filesystem;

namespace local_imports_impl {  // named: a unity batch also holds library_imports.cpp's helpers

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool identChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

int tripleQuotes(std::string_view line) {
  int n = 0;
  for (std::string_view q : {std::string_view("\"\"\""), std::string_view("'''")})
    for (std::size_t at = line.find(q); at != std::string_view::npos; at = line.find(q, at + 3)) ++n;
  return n;
}

// What a byte means to codeOf: most bytes mean nothing there.
enum LineByte : unsigned char { kPlain, kOpen, kClose, kQuote, kHash, kBackslash };

constexpr std::array<LineByte, 256> kLineBytes = [] {
  std::array<LineByte, 256> t{};
  for (unsigned char c : {'(', '[', '{'}) t[c] = kOpen;
  for (unsigned char c : {')', ']', '}'}) t[c] = kClose;
  t[static_cast<unsigned char>('"')] = t[static_cast<unsigned char>('\'')] = kQuote;
  t[static_cast<unsigned char>('#')] = kHash;
  t[static_cast<unsigned char>('\\')] = kBackslash;
  return t;
}();

// The line with its '#' comment cut (outside string literals), adding to `brackets` the brackets it opens
// minus those it closes (string contents included).
std::string_view codeOf(std::string_view line, int& brackets) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const LineByte k = kLineBytes[static_cast<unsigned char>(line[i])];
    if (k == kPlain) continue;
    if (k == kOpen || k == kClose) {
      brackets += k == kOpen ? 1 : -1;
      continue;
    }
    const char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (k == kBackslash && ++i < line.size()) {  // the escaped byte ends no string but counts as a bracket
        const LineByte e = kLineBytes[static_cast<unsigned char>(line[i])];
        if (e == kOpen || e == kClose) brackets += e == kOpen ? 1 : -1;
      }
    } else if (k == kQuote) {
      quote = c;
    } else if (k == kHash) {
      return line.substr(0, i);
    }
  }
  return line;
}

// Logical lines: comments cut, docstring lines skipped, bracketed and backslash continuations joined.
// Calls `fn` with each logical line of `text` (physical lines joined by brackets or a backslash,
// comments removed, the insides of triple-quoted strings skipped); a line standing alone is passed as
// a view of the text, a joined one as a string built for it.
template <class Fn>
void forEachLogicalLine(std::string_view text, Fn&& fn) {
  std::string current;
  bool joining = false;
  int depth = 0;
  bool in_string = false;
  std::size_t pos = 0;
  std::size_t count = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    bool was_in_string = in_string;
    if (tripleQuotes(line) % 2 == 1) in_string = !in_string;
    if (was_in_string || (in_string && depth == 0)) continue;
    line = codeOf(line, depth);
    std::string_view trimmed = trim(line);
    bool continued = !trimmed.empty() && trimmed.back() == '\\';
    if (continued) line = trimmed.substr(0, trimmed.size() - 1);
    if (depth < 0) depth = 0;
    if (depth == 0 && !continued && !joining) {
      fn(line);
    } else {
      current += ' ';
      current += line;
      joining = true;
      if (depth == 0 && !continued) {
        fn(std::string_view(current));
        current.clear();
        joining = false;
      }
    }
    if (++count > 200000) return;
  }
  if (!trim(current).empty()) fn(std::string_view(current));
}

std::vector<std::string> logicalLines(std::string_view text) {
  std::vector<std::string> out;
  forEachLogicalLine(text, [&](std::string_view l) { out.push_back(" " + std::string(l)); });
  return out;
}

std::string dottedAt(std::string_view s, std::size_t& n) {
  n = 0;
  while (n < s.size() && (identChar(s[n]) || s[n] == '.')) ++n;
  return std::string(s.substr(0, n));
}

bool startsWithWord(std::string_view s, std::string_view word) {
  return s.size() > word.size() && s.compare(0, word.size(), word) == 0 &&
         (s[word.size()] == ' ' || s[word.size()] == '\t' || s[word.size()] == '(');
}

// The names of `a, b as c, (d)`: {a, b, d}.
std::vector<std::string> importedNames(std::string_view rest) {
  std::vector<std::string> names;
  std::string cleaned;
  for (char c : rest)
    if (c != '(' && c != ')') cleaned += c;
  std::string_view r = cleaned;
  while (!r.empty()) {
    std::size_t comma = r.find(',');
    std::string_view item = trim(r.substr(0, comma));
    std::size_t n = 0;
    while (n < item.size() && identChar(item[n])) ++n;
    if (n > 0) names.emplace_back(item.substr(0, n));
    if (comma == std::string_view::npos) break;
    r = r.substr(comma + 1);
  }
  return names;
}

// A statement may follow `;` or sit after `try:` / `if ...:` on one line: each piece is looked at.
void parseStatement(std::string_view stmt, std::vector<ImportStatement>& out) {
  stmt = trim(stmt);
  if (std::size_t colon = stmt.find(':'); colon != std::string_view::npos &&
      (stmt.rfind("try", 0) == 0 || stmt.rfind("else", 0) == 0 || stmt.rfind("if ", 0) == 0))
    stmt = trim(stmt.substr(colon + 1));
  if (startsWithWord(stmt, "from")) {
    std::string_view rest = trim(stmt.substr(4));
    ImportStatement imp;
    imp.from = true;
    while (!rest.empty() && rest.front() == '.') {
      ++imp.level;
      rest.remove_prefix(1);
    }
    std::size_t n = 0;
    imp.module = dottedAt(rest, n);
    rest = trim(rest.substr(n));
    if (!startsWithWord(rest, "import") && rest != "import") return;
    imp.names = importedNames(rest.substr(6));
    if (imp.module.empty() && imp.level == 0) return;
    out.push_back(std::move(imp));
  } else if (startsWithWord(stmt, "import")) {
    std::string_view rest = stmt.substr(6);
    while (!rest.empty()) {
      std::size_t comma = rest.find(',');
      std::string_view item = trim(rest.substr(0, comma));
      std::size_t n = 0;
      ImportStatement imp;
      imp.module = dottedAt(item, n);
      if (!imp.module.empty()) out.push_back(std::move(imp));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
}

// The string literals of `s`, in order.
std::vector<std::string> literals(std::string_view s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char q = s[i];
    if (q != '"' && q != '\'') continue;
    std::size_t j = s.find(q, i + 1);
    if (j == std::string_view::npos) break;
    out.emplace_back(s.substr(i + 1, j - i - 1));
    i = j;
  }
  return out;
}

std::size_t countOf(std::string_view s, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string_view::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}

constexpr std::size_t kMaxUps = 64;

// `NAME = value` bindings of the logical lines, by name, in order (a name bound several times keeps
// every value; the first that evaluates to a path wins).
using Bindings = std::unordered_map<std::string, std::vector<std::string_view>>;

Bindings bindingsOf(const std::vector<std::string>& lines) {
  Bindings out;
  for (const std::string& line : lines) {
    std::string_view l = trim(line);
    std::size_t n = 0;
    while (n < l.size() && identChar(l[n])) ++n;
    if (n == 0) continue;
    std::string_view after = trim(l.substr(n));
    if (after.empty() || after[0] != '=' || (after.size() > 1 && after[1] == '=')) continue;
    out[std::string(l.substr(0, n))].push_back(after.substr(1));
  }
  return out;
}

// Evaluates a path expression built from __file__ (or from a name bound to one); nullopt otherwise.
std::optional<fs::path> pathExpression(std::string_view expr, const fs::path& file_dir, const Bindings& bindings,
                                       int depth) {
  expr = trim(expr);
  if (depth > 4 || expr.empty()) return std::nullopt;
  fs::path base;
  std::string_view tail;
  std::size_t at = expr.find("__file__");
  if (at != std::string_view::npos) {
    base = file_dir / "__file__";  // the file itself: the first step up is its folder
    tail = expr.substr(at + 8);
    std::string_view head = expr.substr(0, at);
    for (std::size_t k = countOf(head, "dirname("); k > 0; --k) base = base.parent_path();
  } else {
    std::string_view e = expr;
    for (std::string_view wrapper : {"str(", "os.fspath(", "Path(", "pathlib.Path("})
      if (e.rfind(wrapper, 0) == 0) e = trim(e.substr(wrapper.size()));
    std::size_t n = 0;
    while (n < e.size() && identChar(e[n])) ++n;
    if (n == 0) return std::nullopt;
    std::string name(e.substr(0, n));
    std::optional<fs::path> bound;
    auto values = bindings.find(name);
    if (values != bindings.end())
      for (std::string_view value : values->second)
        if ((bound = pathExpression(value, file_dir, bindings, depth + 1))) break;
    if (!bound) return std::nullopt;
    base = *bound / "__leaf__";  // steps up below start from the bound folder itself
    tail = e.substr(n);
  }
  std::size_t ups = countOf(tail, ".parent") - countOf(tail, ".parents[");
  for (std::size_t at2 = tail.find(".parents["); at2 != std::string_view::npos; at2 = tail.find(".parents[", at2 + 9)) {
    std::size_t k = 0;
    std::size_t i = at2 + 9;
    while (i < tail.size() && tail[i] >= '0' && tail[i] <= '9' && k <= kMaxUps)
      k = k * 10 + static_cast<std::size_t>(tail[i++] - '0');
    ups += k + 1;
  }
  if (ups > kMaxUps) return std::nullopt;  // deeper than any real tree: not a folder worth looking in
  if (at == std::string_view::npos) ups += 1;  // leave "__leaf__"
  else if (ups == 0 && countOf(expr.substr(0, at), "dirname(") == 0) return std::nullopt;  // the file, not a folder
  for (std::size_t k = 0; k < ups; ++k) base = base.parent_path();
  for (const std::string& lit : literals(tail)) base /= lit;
  return base.lexically_normal();
}

bool isFileOnDisk(const fs::path& p) {
  // Each import is looked for in every sys.path folder of every file that has it: a model folder's run asks
  // about the same few thousand paths over and over (torch.py, torch/__init__.py, ...). Within a run the
  // answer is remembered (parse/parse_cache.h); outside one the file system is asked each time.
  static RunTextCache<bool> known;
  if (std::optional<bool> k = known.find(p.native())) return *k;
  std::error_code ec;
  const bool found = fs::is_regular_file(p, ec);
  known.store(p.native(), [&](std::string_view) { return found; });
  return found;
}

fs::path modulePath(const std::string& dotted) {
  fs::path p;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    std::size_t dot = dotted.find('.', start);
    std::string part = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!part.empty()) p /= part;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return p;
}

// Files an import statement names under `folder`: the module (a.py or a/__init__.py) and, for
// `from a import b`, the submodules a/b.py.
void candidatesUnder(const fs::path& folder, const ImportStatement& imp, const LocalProbe& isFile,
                     std::vector<fs::path>& out) {
  fs::path m = folder / modulePath(imp.module);
  if (!imp.module.empty()) {
    if (isFile(fs::path(m.string() + ".py"))) out.push_back(fs::path(m.string() + ".py").lexically_normal());
    else if (isFile(m / "__init__.py")) out.push_back((m / "__init__.py").lexically_normal());
  }
  if (imp.from)
    for (const std::string& name : imp.names)
      if (isFile(m / (name + ".py"))) out.push_back((m / (name + ".py")).lexically_normal());
}

}  // namespace local_imports_impl

using local_imports_impl::candidatesUnder;
using local_imports_impl::logicalLines;
using local_imports_impl::parseStatement;
using local_imports_impl::Bindings;
using local_imports_impl::bindingsOf;
using local_imports_impl::pathExpression;

namespace local_imports_impl {

std::vector<ImportStatement> scanImports(std::string_view python_text) {
  std::vector<ImportStatement> out;
  forEachLogicalLine(python_text, [&](std::string_view l) {
    if (l.find("import") == std::string_view::npos) return;
    while (!l.empty()) {
      std::size_t semi = l.find(';');
      parseStatement(l.substr(0, semi), out);
      if (semi == std::string_view::npos) break;
      l = l.substr(semi + 1);
    }
  });
  return out;
}

}  // namespace local_imports_impl

std::vector<ImportStatement> importStatements(std::string_view python_text) {
  // Remembered per text within one run (parse/parse_cache.h); outside a run, scanned each time.
  static RunTextCache<std::vector<ImportStatement>> seen;
  if (std::optional<std::vector<ImportStatement>> known = seen.find(python_text)) return std::move(*known);
  std::vector<ImportStatement> out = local_imports_impl::scanImports(python_text);
  seen.store(python_text, [&](std::string_view) { return out; });
  return out;
}

std::vector<fs::path> sysPathAdditions(std::string_view python_text, const fs::path& file_dir) {
  std::vector<fs::path> out;
  if (python_text.find("sys.path") == std::string_view::npos) return out;
  std::vector<std::string> lines = logicalLines(python_text);
  const Bindings bindings = bindingsOf(lines);
  for (const std::string& line : lines) {
    std::string_view l = line;
    std::size_t at = l.find("sys.path.insert(");
    std::size_t skip = 16;
    bool insert = at != std::string_view::npos;
    if (!insert) {
      at = l.find("sys.path.append(");
      if (at == std::string_view::npos) continue;
    }
    std::string_view arg = l.substr(at + skip);
    if (insert) {
      std::size_t comma = arg.find(',');
      if (comma == std::string_view::npos) continue;
      arg = arg.substr(comma + 1);
    }
    if (std::size_t close = arg.rfind(')'); close != std::string_view::npos) arg = arg.substr(0, close);
    if (std::optional<fs::path> p = pathExpression(arg, file_dir, bindings, 0))
      if (std::find(out.begin(), out.end(), *p) == out.end()) out.push_back(*p);
  }
  return out;
}

std::vector<LocalFile> importedLocalFiles(const std::vector<LocalFile>& entries, const LocalReader& read,
                                          std::size_t max_files, bool transitive, const LocalProbe& exists) {
  const LocalProbe probe = exists ? exists : LocalProbe(local_imports_impl::isFileOnDisk);
  std::vector<LocalFile> found;
  std::set<fs::path> seen;
  std::vector<fs::path> roots;  // sys.path as the entries see it: their folders, then what files add
  auto addRoot = [&](const fs::path& p) {
    if (std::find(roots.begin(), roots.end(), p) == roots.end()) roots.push_back(p);
  };
  for (const LocalFile& e : entries) {
    seen.insert(e.path.lexically_normal());
    addRoot(e.path.parent_path().lexically_normal());
  }
  std::deque<const LocalFile*> queue;
  for (const LocalFile& e : entries) queue.push_back(&e);
  std::deque<LocalFile> storage;  // stable addresses for the queue
  while (!queue.empty()) {
    const LocalFile& file = *queue.front();
    queue.pop_front();
    const fs::path dir = file.path.parent_path();
    for (const fs::path& p : sysPathAdditions(file.source.text, dir)) addRoot(p);
    for (const ImportStatement& imp : importStatements(file.source.text)) {
      std::vector<fs::path> candidates;
      if (imp.level > 0) {
        fs::path base = dir;
        for (int i = 1; i < imp.level; ++i) base = base.parent_path();
        candidatesUnder(base, imp, probe, candidates);
      } else {
        for (const fs::path& root : roots) {
          std::size_t before = candidates.size();
          candidatesUnder(root, imp, probe, candidates);
          if (candidates.size() > before) break;  // the first folder on sys.path that has it wins
        }
      }
      for (const fs::path& c : candidates) {
        if (found.size() >= max_files) return found;
        if (!seen.insert(c).second) continue;
        std::optional<SourceFile> source = read(c);
        if (!source) continue;
        storage.push_back(LocalFile{c, std::move(*source)});
        found.push_back(storage.back());
        if (transitive) queue.push_back(&storage.back());
      }
    }
  }
  return found;
}

}  // namespace portcheck::dsl

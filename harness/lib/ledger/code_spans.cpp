#include "ledger/code_spans.h"

#include <algorithm>
#include <filesystem>

#include "core/text.h"
#include "dsl/dsl_model.h"
#include "workspace/workspace.h"

namespace portcheck::ledger {

namespace {

bool isCppKernel(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".cpp" || ext == ".cc" || ext == ".cxx";
}

int lineOf(const SourceFile& f, std::uint32_t begin, std::uint32_t end) {
  return f.position(end > begin ? end - 1 : begin).first;
}

void pythonSpans(const SourceFile& src, const dsl::FileModel& file, std::vector<CodeSpan>& out) {
  for (const dsl::Function& fn : file.functions) {
    CodeSpan span{src.path, fn.class_name.empty() ? fn.name : fn.class_name + "." + fn.name, fn.loc.line,
                  std::max(fn.loc.line, fn.last_line), false};
    for (const dsl::Decorator& d : fn.decorators) span.first_line = std::min(span.first_line, d.loc.line);
    for (const dsl::Stmt& s : fn.stmts) span.last_line = std::max(span.last_line, lineOf(src, s.begin, s.end));
    out.push_back(span);
    if (fn.isIncoreFunction()) out.push_back({src.path, fn.name, span.first_line, span.last_line, true});
    for (const dsl::IncoreRegion& r : fn.regions) {
      if (r.kernel_name.empty() || r.stmt < 0 || r.kind == dsl::RegionKind::IncoreFunction) continue;
      const dsl::Stmt& s = fn.stmts[static_cast<std::size_t>(r.stmt)];
      out.push_back({src.path, r.kernel_name, s.loc.line, lineOf(src, s.begin, s.end), true});
    }
  }
}

bool touches(const Hunk& h, const CodeSpan& s) {
  if (h.new_lines == 0) return s.first_line <= h.new_start && h.new_start <= s.last_line;  // a deletion
  return h.new_start <= s.last_line && s.first_line <= h.new_start + h.new_lines - 1;
}

void addOnce(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

}  // namespace

std::vector<CodeSpan> codeSpans(std::span<const SourceFile> files) {
  std::vector<CodeSpan> out;
  std::vector<SourceFile> python;
  for (const SourceFile& f : files) {
    if (isPythonSource(std::filesystem::path(f.path))) python.push_back(f);
    else if (isCppKernel(f.path))
      out.push_back({f.path, std::filesystem::path(f.path).stem().string(), 1,
                     std::max(1, static_cast<int>(splitLines(f.text).size())), true});
  }
  if (python.empty()) return out;
  dsl::ProgramModel model = dsl::buildProgramModel(python);
  for (const dsl::FileModel& m : model.files) {
    auto src = std::find_if(python.begin(), python.end(), [&](const SourceFile& f) { return f.path == m.path; });
    if (m.parsed && src != python.end()) pythonSpans(*src, m, out);
  }
  return out;
}

void attributeChanges(std::vector<FileChange>& changes, const std::vector<CodeSpan>& spans) {
  for (FileChange& c : changes) {
    if (c.status == "removed") {
      if (isCppKernel(c.file)) c.kernels.push_back(std::filesystem::path(c.file).stem().string());
      continue;
    }
    for (const CodeSpan& s : spans) {
      if (s.file != c.file) continue;
      bool hit = c.status == "added";  // a modified file whose old text was not kept touches nothing known
      for (const Hunk& h : c.hunks) hit = hit || touches(h, s);
      if (hit) addOnce(s.kernel ? c.kernels : c.functions, s.name);
    }
  }
}

std::string enclosingFunction(const std::vector<CodeSpan>& spans, const std::string& file, int line) {
  const CodeSpan* best = nullptr;
  if (line <= 0) return "";
  for (const CodeSpan& s : spans)
    if (!s.kernel && s.file == file && s.first_line <= line && line <= s.last_line &&
        (!best || s.last_line - s.first_line < best->last_line - best->first_line))
      best = &s;
  return best ? best->name : "";
}

std::vector<std::string> definedNames(const std::vector<CodeSpan>& spans) {
  std::vector<std::string> names;
  for (const CodeSpan& s : spans) names.push_back(s.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace portcheck::ledger

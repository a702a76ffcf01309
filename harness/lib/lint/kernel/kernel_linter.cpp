// C++ incore kernel linter entry: parses the file with tree-sitter, builds the kernel model, classifies the file
// (kernel/kernel_class.h), reports syntax errors of PTO-ISA code (ISA001), runs the AUTO and ISA checks that fit its
// class and says which it did not run (ISA014), and honours `// port-check: ignore[ID]` comments through the shared
// suppression machinery (lint/suppression.h), reporting unknown (ISA012) and unused (ISA013) suppressions.
#include <filesystem>
#include <set>

#include "kernel/build_evidence.h"
#include "kernel/kernel_class.h"
#include "kernel/kernel_model.h"
#include "kernel/kernel_source.h"
#include "lint/kernel/kernel_check.h"
#include "lint/linters.h"
#include "lint/suppression.h"
#include "parse/syntax_tree.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// Every ERROR and MISSING node, outermost first in source order (the children of an ERROR are not visited).
std::vector<TSNode> errorNodes(const SyntaxTree& tree) {
  std::vector<TSNode> out;
  std::vector<TSNode> stack{tree.root()};
  while (!stack.empty() && out.size() < 64) {
    TSNode n = stack.back();
    stack.pop_back();
    if (nodeType(n) == "ERROR" || ts_node_is_missing(n)) {
      out.push_back(n);
      continue;
    }
    if (!ts_node_has_error(n)) continue;
    for (uint32_t i = ts_node_child_count(n); i-- > 0;) stack.push_back(ts_node_child(n, i));
  }
  return out;
}

// The function holding `err` (its outermost function_definition, with its template head), else the scope body
// the error sits in directly (a namespace's declaration list), else the error itself at file level.
TSNode enclosingUnit(TSNode err) {
  TSNode unit{};
  for (TSNode n = ts_node_parent(err); !isNull(n); n = ts_node_parent(n)) {
    std::string_view t = nodeType(n);
    if (t == "function_definition") {
      unit = n;
      TSNode p = ts_node_parent(n);
      if (!isNull(p) && nodeType(p) == "template_declaration") unit = p;
    }
  }
  if (!isNull(unit)) return unit;
  TSNode p = ts_node_parent(err);
  // Not a whole-file #if block: its own directive lines would explain every error in the file.
  if (!isNull(p) && nodeType(p) != "translation_unit" && !nodeType(p).starts_with("preproc_")) return p;
  return err;
}

bool fits(KernelScope scope, kernel::KernelKind kind) {
  switch (kind) {
    case kernel::KernelKind::Auto: return true;
    case kernel::KernelKind::Manual: return scope == KernelScope::PtoIsaKernels;
    case kernel::KernelKind::NotPtoIsa: return false;
  }
  return false;
}

// "AUTO001-AUTO013, AUTO016-AUTO024, ISA007, ISA008": rule IDs in catalogue order, runs of consecutive numbers joined.
std::string idRanges(const std::vector<std::string_view>& ids) {
  auto number = [](std::string_view id) { return std::stoi(std::string(id.substr(id.find_first_of("0123456789")))); };
  auto family = [](std::string_view id) { return id.substr(0, id.find_first_of("0123456789")); };
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && family(ids[j + 1]) == family(ids[i]) && number(ids[j + 1]) == number(ids[j]) + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::string(ids[i]);
    if (j > i) out += (j == i + 1 ? ", " : "-") + std::string(ids[j]);
    i = j + 1;
  }
  return out;
}

// ISA014: the file's class, why, and what was not applied.
Diagnostic classNote(const SourceFile& f, const kernel::KernelClass& k, const std::vector<std::string_view>& skipped) {
  if (k.kind == kernel::KernelKind::NotPtoIsa)
    return makeDiagnostic("ISA014", f.path, 1, 1,
                          "not a PTO-ISA kernel (" + k.what + ": " + k.why +
                              "); AUTO and ISA rules not applied, and not compiled against PTO-ISA",
                          "nothing to change: port-check checks PTO-ISA kernels only");
  std::string ext = std::filesystem::path(f.path).extension().string();
  bool compiled = ext == ".cpp" || ext == ".cc" || ext == ".cxx";  // headers are compiled through their kernels
  return makeDiagnostic("ISA014", f.path, 1, 1,
                        k.what + " (" + k.why + "); the AUTO-kernel rules " + idRanges(skipped) + " not applied" +
                            (compiled ? ", and the compile check builds it without __PTO_AUTO__" : ""),
                        "to hold it to the AUTO rules, port it to AUTO mode (guard the manual-mode parts with "
                        "#ifndef __PTO_AUTO__) or keep it in a port's pypto_src/");
}

// What every kernel file ends with: its class note, then the suppressions applied and audited. `ran`: the
// rules that ran on the file; `skipped`: the kernel rules its class does not fit.
void finishFile(const SourceFile& f, const kernel::KernelClass& kind, const std::vector<std::string_view>& skipped,
                const std::set<std::string_view>& ran, Suppressions& sup, std::vector<Diagnostic>& out) {
  // Plain host or infrastructure C++ is no kernel: nothing was expected of it, so nothing is said.
  if (kind.kind == kernel::KernelKind::Manual || kind.device_code) out.push_back(classNote(f, kind, skipped));
  if (sup.empty()) return;
  sup.apply(f.path, out);
  // Only the kernel lint rules that ran on this file are judged: compile-stage IDs (ISA009/ISA010) are used by
  // the compile pass, and a rule that does not fit the file's class silences nothing here but is not unused.
  SuppressionAudit audit{"ISA012", "ISA013", [&ran](const RuleInfo& r) {
                           return (r.family == "AUTO" || r.family == "ISA") && r.source == Stage::Lint &&
                                  ran.count(r.id);
                         }};
  auditSuppressions(f.path, sup, audit, out);
}

}  // namespace

std::vector<Diagnostic> lintKernelFile(const SourceFile& f, const LintSettings& settings) {
  std::vector<Diagnostic> out;
  Suppressions sup = parseSuppressions(f, "//");
  // A file whose words show it is no PTO-ISA code (a vendored CCE header) is classed without a parse.
  if (std::optional<kernel::KernelClass> kind = kernel::classifyWithoutParse(f)) {
    finishFile(f, *kind, {}, {"ISA014"}, sup, out);
    return out;
  }
  std::string parseable = kernel::parseableText(f.text);
  SyntaxTree tree = SyntaxTree::parse(Language::Cpp, parseable);
  if (!tree.ok()) {
    out.push_back(makeDiagnostic("ISA001", f.path, 1, 1, "the file could not be parsed in time"));
    return out;
  }
  kernel::KernelModel model = kernel::buildModel(f, tree);
  std::optional<kernel::BuildMode> build;
  if (settings.kernel_build) build = settings.kernel_build->modeOf(f.path);
  kernel::KernelClass kind = kernel::classifyKernel(f, model, sup.namesRule("AUTO"), build);
  const bool pto_isa = kind.kind != kernel::KernelKind::NotPtoIsa;
  // The first grammar error the preprocessor cannot explain (macros and #if branches are not expanded here).
  if (pto_isa && tree.hasError()) {
    for (TSNode err : errorNodes(tree)) {
      std::uint32_t b = ts_node_start_byte(err), e = ts_node_end_byte(err);
      TSNode unit = enclosingUnit(err);
      // Once the preprocessor explains one error, later ones are taken as its cascade (error recovery after a
      // macro-built initializer or an unbalanced #if branch runs on for many lines); the compile check sees them.
      if (kernel::preprocessorMayExplain(f.text, b, e, ts_node_start_byte(unit), ts_node_end_byte(unit))) break;
      auto [line, col] = f.position(b);
      std::string what = ts_node_is_missing(err) ? "missing '" + std::string(nodeType(err)) + "'" : "invalid syntax";
      out.push_back(makeDiagnostic("ISA001", f.path, line, col, what));
      break;
    }
  }
  KernelContext ctx{f, model, settings.platform};
  std::set<std::string_view> ran{"ISA014"};
  if (pto_isa) ran.insert("ISA001");
  std::vector<std::string_view> skipped;
  for (const auto& check : kernelChecks()) {
    if (!fits(check->scope(), kind.kind)) {
      skipped.push_back(check->id());
      continue;
    }
    check->check(ctx, out);
    ran.insert(check->id());
  }
  // The build, not the source, made this an AUTO kernel: every AUTO finding says which evidence decided.
  if (kind.build)
    for (Diagnostic& d : out)
      if (d.rule.starts_with("AUTO") && d.file == f.path)
        d.notes.push_back({kind.build->file, kind.build->line, 0,
                           "AUTO mode decided by the build (the source never tests __PTO_AUTO__): " + kind.build->evidence});
  finishFile(f, kind, skipped, ran, sup, out);
  return out;
}

}  // namespace portcheck

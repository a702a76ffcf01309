#include "lint/proj/contract_missing_category_check.h"

#include <algorithm>
#include <functional>
#include <set>

#include "core/text.h"
#include "dsl/dsl_model.h"
#include "lint/proj/contract.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// Names a file binds at module level to pl.dynamic(...) / pl.DynVar(...) (`N = pl.dynamic("N")`).
std::set<std::string> dynamicDimNames(const dsl::FileModel& file) {
  std::set<std::string> names;
  for (std::string_view line : splitLines(file.source)) {
    if (line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '#') continue;
    std::size_t eq = line.find('=');
    if (eq == std::string_view::npos || eq + 1 >= line.size() || line[eq + 1] == '=') continue;
    std::string_view rhs = line.substr(eq + 1);
    if (rhs.find(".dynamic(") == std::string_view::npos && rhs.find("DynVar(") == std::string_view::npos &&
        rhs.rfind(" dynamic(", 0) != 0)
      continue;
    std::string_view name = trim(line.substr(0, eq));
    if (std::size_t colon = name.find(':'); colon != std::string_view::npos) name = trim(name.substr(0, colon));
    names.emplace(name);
  }
  return names;
}

// The first entry parameter whose annotation has a dynamic dim: `pl.dynamic("N")` written in it, or a
// name bound to one at module level. Empty when none.
std::string dynamicEntryParam(const ProjectSourceContext& ctx, const std::string& entry) {
  for (const dsl::FileModel& file : ctx.model.files) {
    if (!file.parsed) continue;
    if (std::none_of(ctx.files.begin(), ctx.files.end(),
                     [&](const SourceFile& f) { return f.path == file.path && ctx.own(f); }))
      continue;
    std::set<std::string> dyn;
    bool dyn_read = false;
    for (const dsl::Function& fn : file.functions) {
      bool is_entry = entry.empty() ? fn.kind == dsl::FunctionKind::JitEntry || fn.kind == dsl::FunctionKind::Orchestration
                                    : fn.name == entry && fn.isDsl();
      if (!is_entry) continue;
      for (const dsl::Param& p : fn.params) {
        if (p.annotation < 0 || p.is_self) continue;
        bool found = false;
        std::function<void(int, int)> walk = [&](int e, int depth) {
          if (e < 0 || found || depth > dsl::kMaxNesting) return;
          const dsl::Expr& x = fn.exprs[static_cast<std::size_t>(e)];
          if (x.kind == dsl::ExprKind::Call && (x.opName() == "dynamic" || x.opName() == "DynVar")) found = true;
          if (x.kind == dsl::ExprKind::Name) {
            if (!dyn_read) {
              dyn = dynamicDimNames(file);
              dyn_read = true;
            }
            if (dyn.count(x.name)) found = true;
          }
          for (int c : x.children) walk(c, depth + 1);
        };
        walk(p.annotation, 0);
        if (found) return p.name;
      }
    }
  }
  return {};
}

std::string categoryMeaning(std::string_view c) {
  if (c == "large") return "magnitudes far above 1: overflow in exp or in a sum of squares, a lost max subtraction";
  if (c == "neg_inf") return "-inf where the operator masks";
  if (c == "zero") return "zeros where the operator divides or normalises by them";
  if (c == "edge") return "an extent of 1: one token, one row, one block";
  if (c == "tail") return "an extent that is not a multiple of the tile: the last partial tile";
  if (c == "prime") return "a prime extent that no tile divides";
  return "";
}

}  // namespace

void ContractMissingCategoryCheck::checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const {
  if (!ctx.golden || !ctx.golden->parsed()) return;
  std::optional<proj::Contract> contract = proj::readContract(*ctx.golden);
  if (!contract || !contract->dict || !contract->kind || !contract->has_cases) return;
  const proj::Contract& c = *contract;
  const std::string& path = ctx.golden->file().path;
  // Parametric shapes: said so, or (when `shapes` is not given) an entry with a pl.dynamic dim.
  bool parametric = c.shapes && *c.shapes == "parametric";
  std::string why_parametric = "CONTRACT says \"shapes\": \"parametric\"";
  if (!c.shapes) {
    std::string entry;
    if (TSNode e = ctx.golden->assigned("ENTRY"); !isNull(e)) {
      proj::PyLiteral lit = ctx.golden->literal(e);
      if (lit.kind == proj::PyLiteral::Kind::String) entry = lit.s;
    }
    std::string param = dynamicEntryParam(ctx, entry);
    if (!param.empty()) {
      parametric = true;
      why_parametric = "the entry's parameter '" + param + "' has a pl.dynamic dim";
    }
  }
  const bool masked = c.masked.value_or(false);
  for (const std::string& category : proj::requiredCategories(*c.kind, masked, parametric)) {
    if (c.hasCategory(category)) continue;
    std::string why = "kind '" + *c.kind + "'";
    if (category == "tail" || category == "prime") why = why_parametric;
    else if (category == "neg_inf") why = "a masked '" + *c.kind + "' (\"masked\": True)";
    out.push_back(makeDiagnostic(id(), path, c.cases_loc.line, c.cases_loc.col,
                                 "CONTRACT has no case of category '" + category + "' (" + categoryMeaning(category) +
                                     "), which " + why + " needs"));
  }
  if (*c.kind == "quantize" &&
      std::none_of(c.compare.begin(), c.compare.end(), [](const proj::ContractComparator& x) { return x.max_steps; }))
    out.push_back(makeDiagnostic(id(), path, c.kind_loc.line, c.kind_loc.col,
                                 "CONTRACT of kind 'quantize' compares no integer output with max_steps: a quantised "
                                 "output is judged by how many elements differ by one step, two steps, ...",
                                 "add \"compare\": {\"<int output>\": {\"max_steps\": {\"1\": n1}}} (docs/contract.md §4)"));
}

}  // namespace portcheck

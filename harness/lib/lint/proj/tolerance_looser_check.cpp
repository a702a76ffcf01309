#include "lint/proj/tolerance_looser_check.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "lint/proj/contract.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// Where one tolerance is written.
struct ToleranceSite {
  std::string what;  // "RTOL", "TOLERANCES['y'] rtol", "CONTRACT compare['y'] atol"
  proj::SrcLoc loc;
  double value = 0;
  bool rtol = true;
};

// The (rtol, atol) sites that apply to one output.
struct OutputTolerance {
  std::optional<ToleranceSite> rtol, atol;
};

std::string shortNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// TOLERANCES = {"out": (rtol, atol)} or {"out": {"rtol": r, "atol": a}}, values folded through constants.
std::map<std::string, OutputTolerance> tolerancesTable(const proj::GoldenSource& g) {
  std::map<std::string, OutputTolerance> table;
  TSNode dict = g.assigned("TOLERANCES");
  if (isNull(dict) || nodeType(dict) != "dictionary") return table;
  for (TSNode pair : namedChildren(dict)) {
    if (nodeType(pair) != "pair") continue;
    std::optional<std::string> name = proj::stringLiteralValue(childByField(pair, "key"), g.file().text);
    if (!name) continue;
    TSNode v = childByField(pair, "value");
    OutputTolerance t;
    auto set = [&](TSNode e, bool rtol) {
      std::optional<double> x = g.number(e);
      if (!x) return;
      ToleranceSite s{"TOLERANCES['" + *name + "'] " + (rtol ? "rtol" : "atol"), g.loc(e), *x, rtol};
      (rtol ? t.rtol : t.atol) = s;
    };
    std::string_view vt = nodeType(v);
    if (vt == "tuple" || vt == "list") {
      std::vector<TSNode> kids;
      for (TSNode c : namedChildren(v))
        if (!isComment(c)) kids.push_back(c);
      if (kids.size() == 2) {
        set(kids[0], true);
        set(kids[1], false);
      }
    } else if (vt == "dictionary") {
      for (TSNode p : namedChildren(v)) {
        if (nodeType(p) != "pair") continue;
        std::optional<std::string> k = proj::stringLiteralValue(childByField(p, "key"), g.file().text);
        if (k && (*k == "rtol" || *k == "atol")) set(childByField(p, "value"), *k == "rtol");
      }
    }
    table[*name] = t;
  }
  return table;
}

bool halfPrecisionInputs(const std::vector<proj::GoldenTensor>& tensors) {
  return std::any_of(tensors.begin(), tensors.end(), [](const proj::GoldenTensor& t) {
    return !t.is_output && (t.dtype == proj::TensorDtype::BFloat16 || t.dtype == proj::TensorDtype::Float16);
  });
}

// The loosest tolerance a floating output's dtype justifies, and the words for it; nullopt when the dtype
// is not a floating one seen in golden.py (only the absolute bound applies then). A float32 result of
// bfloat16 / float16 inputs inherits their rounding: their bound.
struct Bound {
  double limit = 0;
  std::string why;
};

std::optional<Bound> boundFor(const proj::GoldenTensor& out, bool half_inputs) {
  using proj::TensorDtype;
  const std::string dt(proj::dtypeName(out.dtype));
  if (out.dtype == TensorDtype::Float32 || out.dtype == TensorDtype::Float64) {
    if (half_inputs) return Bound{5e-2, dt + " output of bfloat16 / float16 inputs"};
    return Bound{1e-3, dt + " output (and no bfloat16 / float16 input)"};
  }
  if (out.dtype == TensorDtype::BFloat16 || out.dtype == TensorDtype::Float16) return Bound{5e-2, dt + " output"};
  return std::nullopt;
}

}  // namespace

void ToleranceLooserCheck::checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const {
  const proj::GoldenSource* g = ctx.golden;
  if (!g || !g->parsed()) return;
  const std::vector<proj::GoldenTensor> tensors = g->tensors();
  std::vector<std::string> outputs;
  if (std::optional<std::vector<std::string>> o = g->outputs()) outputs = *o;
  else
    for (const proj::GoldenTensor& t : tensors)
      if (t.is_output) outputs.push_back(t.name);
  if (outputs.empty()) return;

  // The module pair, the per-output table, the contract's comparators: the most specific wins.
  OutputTolerance module;
  proj::SrcLoc at;
  if (TSNode r = g->assigned("RTOL", &at); !isNull(r))
    if (std::optional<double> v = g->number(r)) module.rtol = ToleranceSite{"RTOL", at, *v, true};
  if (TSNode a = g->assigned("ATOL", &at); !isNull(a))
    if (std::optional<double> v = g->number(a)) module.atol = ToleranceSite{"ATOL", at, *v, false};
  const std::map<std::string, OutputTolerance> table = tolerancesTable(*g);
  std::map<std::string, OutputTolerance> contract;
  if (std::optional<proj::Contract> c = proj::readContract(*g); c && c->dict)
    for (const proj::ContractComparator& cmp : c->compare) {
      OutputTolerance t;
      if (cmp.rtol) t.rtol = ToleranceSite{"CONTRACT compare['" + cmp.output + "'] rtol", cmp.rtol_loc, *cmp.rtol, true};
      if (cmp.atol) t.atol = ToleranceSite{"CONTRACT compare['" + cmp.output + "'] atol", cmp.atol_loc, *cmp.atol, false};
      contract[cmp.output] = t;
    }

  // Per site, the outputs it is too loose for (in output order).
  struct Excess {
    ToleranceSite site;
    std::vector<std::string> why;
  };
  std::vector<Excess> excesses;
  auto add = [&](const ToleranceSite& site, std::string why) {
    for (Excess& e : excesses)
      if (e.site.what == site.what && e.site.loc.line == site.loc.line) {
        e.why.push_back(std::move(why));
        return;
      }
    excesses.push_back({site, {std::move(why)}});
  };
  const bool half_inputs = halfPrecisionInputs(tensors);
  for (const std::string& name : outputs) {
    const proj::GoldenTensor* tensor = nullptr;
    for (const proj::GoldenTensor& t : tensors)
      if (t.name == name) tensor = &t;
    proj::GoldenTensor unknown;
    unknown.name = name;
    const proj::GoldenTensor& o = tensor ? *tensor : unknown;
    for (bool rtol : {true, false}) {
      std::optional<ToleranceSite> site;
      auto pick = [&](const std::map<std::string, OutputTolerance>& m) {
        if (site) return;
        auto it = m.find(name);
        if (it != m.end()) site = rtol ? it->second.rtol : it->second.atol;
      };
      pick(contract);
      pick(table);
      if (!site) site = rtol ? module.rtol : module.atol;
      if (!site) continue;
      const double v = site->value;
      const std::string label = "'" + name + "' (" +
                                (o.dtype == proj::TensorDtype::Unknown ? "dtype not seen" : std::string(proj::dtypeName(o.dtype))) +
                                ")";
      if (o.dtype == proj::TensorDtype::Integer || o.dtype == proj::TensorDtype::Bool) {
        // An integer output: one step (ATOL 1) is the natural bound, a relative one has no meaning.
        if (rtol ? v >= 0.5 : v > 1.0)
          add(*site, label + ", where " + (rtol ? "any rtol >= 0.5" : "an atol above one step (1)") + " lets wrong values pass");
        continue;
      }
      if (v >= 0.5) {
        add(*site, label + ", where no tolerance of 0.5 or more is ever justified");
        continue;
      }
      if (std::optional<Bound> b = boundFor(o, half_inputs); b && v > b->limit)
        add(*site, label + ", bound " + shortNumber(b->limit) + " for a " + b->why);
    }
  }
  for (const Excess& e : excesses) {
    std::string list;
    for (std::size_t i = 0; i < e.why.size(); ++i) list += (i ? "; " : "") + e.why[i];
    out.push_back(makeDiagnostic(
        id(), g->file().path, e.site.loc.line, e.site.loc.col,
        e.site.what + " = " + shortNumber(e.site.value) + " is far looser than the computation justifies for " +
            (e.why.size() == 1 ? "output " : "outputs ") + list +
            " (skill golden-and-tolerances: derive it from the output dtype and the reduction length)"));
  }
}

}  // namespace portcheck

#include "lint/proj/contract_seed_unused_check.h"

#include <algorithm>
#include <map>
#include <set>

#include "lint/proj/contract.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

enum class SeedRead { No, Maybe, Yes };  // ordered: the strongest evidence wins

bool isSeedString(const proj::GoldenSource& g, TSNode n) {
  std::optional<std::string> s = proj::stringLiteralValue(n, g.file().text);
  return s && *s == "seed";
}

// The parameters of `fn` in order, for mapping a call's arguments onto them.
std::vector<std::string> parameterList(const proj::GoldenSource& g, TSNode fn) {
  std::vector<std::string> names;
  for (TSNode p : namedChildren(childByField(fn, "parameters"))) {
    std::string_view t = nodeType(p);
    if (t == "identifier") names.emplace_back(g.text(p));
    else if (t == "default_parameter" || t == "typed_default_parameter") names.emplace_back(g.text(childByField(p, "name")));
    else if (t == "typed_parameter")
      for (TSNode c : namedChildren(p))
        if (nodeType(c) == "identifier") {
          names.emplace_back(g.text(c));
          break;
        }
  }
  return names;
}

bool mentionsAny(const proj::GoldenSource& g, TSNode n, const std::set<std::string>& names) {
  bool hit = false;
  proj::forEachNode(n, [&](TSNode x) {
    if (!hit && nodeType(x) == "identifier" && names.count(std::string(g.text(x)))) hit = true;
  });
  return hit;
}

// Follows the params dict from the function that draws the inputs (generate_inputs(), a block's
// build_tensor_specs()) through golden.py: Yes when some function reads its
// seed (params["seed"], params.get("seed", ...), pop / setdefault; any `[...]["seed"]` counts), Maybe when
// the dict is handed to code outside golden.py (`helper(params)`, `f(**params)`), which may read it.
class SeedReadFinder {
 public:
  explicit SeedReadFinder(const proj::GoldenSource& g) : g_(g) {}

  SeedRead run(const std::string& function) {
    std::vector<std::string> params = parameterList(g_, g_.function(function));
    enqueue(function, std::set<std::string>(params.begin(), params.end()));
    while (!work_.empty() && found_ != SeedRead::Yes) {
      std::string name = std::move(work_.back());
      work_.pop_back();
      scan(g_.function(name), carriers_[name]);
    }
    return found_;
  }

 private:
  void enqueue(const std::string& fn, const std::set<std::string>& names) {
    auto [it, fresh] = carriers_.try_emplace(fn);
    std::size_t before = it->second.size();
    it->second.insert(names.begin(), names.end());
    if (fresh || it->second.size() != before) work_.push_back(fn);
  }

  void scan(TSNode fn, std::set<std::string> names) {
    if (isNull(fn)) return;
    TSNode body = childByField(fn, "body");
    // p = params or {}: the alias carries the dict too.
    proj::forEachNode(body, [&](TSNode n) {
      if (nodeType(n) != "assignment") return;
      TSNode l = childByField(n, "left");
      if (!isNull(l) && nodeType(l) == "identifier" && mentionsAny(g_, childByField(n, "right"), names))
        names.emplace(g_.text(l));
    });
    proj::forEachNode(body, [&](TSNode n) {
      if (found_ == SeedRead::Yes) return;
      std::string_view t = nodeType(n);
      if (t == "subscript") {
        if (isSeedString(g_, childByField(n, "subscript"))) found_ = SeedRead::Yes;
        return;
      }
      if (t == "call") call(n, names);
    });
  }

  void call(TSNode n, const std::set<std::string>& names) {
    TSNode callee = childByField(n, "function");
    std::vector<TSNode> args;
    for (TSNode a : namedChildren(childByField(n, "arguments")))
      if (!isComment(a)) args.push_back(a);
    if (!isNull(callee) && nodeType(callee) == "attribute") {
      std::string_view method = g_.text(childByField(callee, "attribute"));
      if ((method == "get" || method == "pop" || method == "setdefault" || method == "__getitem__") && !args.empty() &&
          isSeedString(g_, args[0])) {
        found_ = SeedRead::Yes;
        return;
      }
    }
    const bool local = !isNull(callee) && nodeType(callee) == "identifier" && g_.hasFunction(g_.text(callee));
    std::vector<std::string> callee_params;
    if (local) callee_params = parameterList(g_, g_.function(g_.text(callee)));
    std::set<std::string> passed;  // the callee's parameters that receive the dict
    std::size_t position = 0;
    for (TSNode a : args) {
      std::string_view at = nodeType(a);
      if (at == "dictionary_splat" || at == "list_splat") {
        if (mentionsAny(g_, a, names)) {
          if (!local) found_ = std::max(found_, SeedRead::Maybe);
          else passed.insert(callee_params.begin(), callee_params.end());
        }
        continue;
      }
      if (at == "keyword_argument") {
        if (mentionsAny(g_, childByField(a, "value"), names)) {
          if (!local) found_ = std::max(found_, SeedRead::Maybe);
          else passed.emplace(g_.text(childByField(a, "name")));
        }
        continue;
      }
      const std::size_t index = position++;
      if (at != "identifier" || !names.count(std::string(g_.text(a)))) continue;
      if (!local) found_ = std::max(found_, SeedRead::Maybe);
      else if (index < callee_params.size()) passed.insert(callee_params[index]);
    }
    if (local) enqueue(std::string(g_.text(callee)), passed);
  }

  const proj::GoldenSource& g_;
  std::map<std::string, std::set<std::string>> carriers_;  // function -> names carrying the params dict
  std::vector<std::string> work_;
  SeedRead found_ = SeedRead::No;
};

}  // namespace

void ContractSeedUnusedCheck::checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const {
  const proj::GoldenSource* g = ctx.golden;
  if (!g || !g->parsed()) return;
  std::optional<proj::Contract> contract = proj::readContract(*g);
  if (!contract || !contract->dict || !contract->has_seeds) return;
  // A block draws its inputs in build_tensor_specs(params) (docs/contract.md §8): its init_value callables
  // use generators of their own, so the run's seeding of torch's global one does not reach them.
  const std::string function = ctx.block ? "build_tensor_specs" : "generate_inputs";
  TSNode gen = g->function(function);
  if (isNull(gen)) return;  // GOLD005 at run time
  if (SeedReadFinder(*g).run(function) != SeedRead::No) return;
  const bool no_params = parameterList(*g, gen).empty();
  proj::SrcLoc at = g->loc(childByField(gen, "name"));
  out.push_back(makeDiagnostic(
      id(), g->file().path, at.line, at.col,
      "CONTRACT declares seeds but " + function + "() " +
          (no_params ? std::string("takes no params, so it cannot read params[\"seed\"]")
                     : "never reads params[\"seed\"] (nor does a function of " +
                           std::string(ctx.block ? "the block file" : "golden.py") + " it calls)") +
          ": every seed draws the same inputs, and the contract's seeds check one input set"));
}

}  // namespace portcheck

#include "lint/proj/contract.h"

#include <algorithm>
#include <regex>
#include <set>

namespace portcheck::proj {

namespace {

using Kind = PyLiteral::Kind;

constexpr std::string_view kKinds[] = {"elementwise", "reduction", "norm",    "matmul",  "mlp",  "softmax",
                                       "attention",   "quantize",  "routing", "moe",     "other"};
constexpr std::string_view kCategories[] = {"base",       "tail", "prime", "edge",    "small", "large",
                                            "asymmetric", "zero", "inf",   "neg_inf", "nan"};
constexpr std::string_view kContractKeys[] = {"kind", "seeds", "cases", "masked", "shapes", "compare"};
constexpr std::string_view kComparatorKeys[] = {"rtol", "atol", "pass_rate", "max_steps"};

template <std::size_t N>
bool oneOf(std::string_view s, const std::string_view (&set)[N]) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

template <std::size_t N>
std::string listOf(const std::string_view (&set)[N]) {
  std::string s;
  for (std::string_view x : set) s += (s.empty() ? "" : ", ") + std::string(x);
  return s;
}

std::string singleQuoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// Reads the contract dict into `c`, one problem per thing wrong.
class ContractReader {
 public:
  ContractReader(const GoldenSource& g, Contract& c) : g_(g), c_(c) {}

  void read(const PyLiteral& top) {
    // Every part that is not a literal, once: the rest is read around it.
    collectNonLiterals(top);
    std::set<std::string> seen;
    for (const auto& [key, value] : top.items) {
      if (key.kind == Kind::Other) continue;  // reported: **other
      if (key.kind != Kind::String) {
        problem(key.loc, "CONTRACT has a key that is not a string (" + key.text + "); its keys are " + listOf(kContractKeys));
        continue;
      }
      seen.insert(key.s);
      if (key.s == "kind") readKind(key, value);
      else if (key.s == "seeds") readSeeds(key, value);
      else if (key.s == "cases") readCases(key, value);
      else if (key.s == "masked") readMasked(value);
      else if (key.s == "shapes") readShapes(key, value);
      else if (key.s == "compare") readCompare(value);
      else problem(key.loc, "unknown CONTRACT key " + singleQuoted(key.s) + " (known: " + listOf(kContractKeys) + ")");
    }
    for (std::string_view required : {"kind", "seeds", "cases"})
      if (!seen.count(std::string(required)))
        problem(c_.loc, "CONTRACT has no " + singleQuoted(required) + " (required: kind, seeds, cases)");
    if (!c_.has_cases) c_.cases_loc = c_.loc;
    std::stable_sort(c_.problems.begin(), c_.problems.end(), [](const ContractProblem& a, const ContractProblem& b) {
      return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
    });
  }

 private:
  void problem(SrcLoc at, std::string message) { c_.problems.push_back({at, std::move(message)}); }

  void collectNonLiterals(const PyLiteral& v) {
    if (v.kind == Kind::Other) {
      problem(v.loc, "CONTRACT holds `" + v.text +
                         "`, which is not a literal: write every value as a Python literal (numbers, strings, "
                         "lists, dicts, True / False), special values as strings turned into values in "
                         "generate_inputs()");
      return;
    }
    for (const PyLiteral& e : v.elems) collectNonLiterals(e);
    for (const auto& [k, x] : v.items) {
      collectNonLiterals(k);
      collectNonLiterals(x);
    }
  }

  void readKind(const PyLiteral& key, const PyLiteral& v) {
    c_.kind_loc = v.loc;
    if (v.kind == Kind::Other) return;
    if (v.kind != Kind::String) {
      problem(v.loc, "CONTRACT kind " + v.text + " is not a string: one of " + listOf(kKinds));
      return;
    }
    if (!oneOf(v.s, kKinds)) {
      problem(v.loc, "unknown CONTRACT kind " + singleQuoted(v.s) + " (known: " + listOf(kKinds) + ")");
      return;
    }
    c_.kind = v.s;
  }

  void readSeeds(const PyLiteral& key, const PyLiteral& v) {
    c_.has_seeds = true;
    c_.seeds_loc = key.loc;
    if (v.kind == Kind::Other) return;
    if (v.kind == Kind::Int) {
      if (v.i < 3) problem(v.loc, "CONTRACT seeds = " + v.text + ": every case must run under at least 3 seeds");
      return;
    }
    if (!v.isSequence()) {
      problem(v.loc, "CONTRACT seeds " + v.text + " is neither a list of at least 3 distinct integers nor an integer N >= 3");
      return;
    }
    std::set<std::int64_t> distinct;
    bool all_ints = true;
    for (const PyLiteral& s : v.elems) {
      if (s.kind == Kind::Other) {
        all_ints = false;
        continue;
      }
      if (s.kind != Kind::Int) {
        problem(s.loc, "seed " + s.text + " is not an integer");
        all_ints = false;
        continue;
      }
      if (!distinct.insert(s.i).second) problem(s.loc, "seed " + s.text + " appears twice in CONTRACT seeds");
    }
    if (all_ints && v.elems.size() < 3)
      problem(v.loc, "CONTRACT seeds has " + std::to_string(v.elems.size()) +
                         (v.elems.size() == 1 ? " seed" : " seeds") + ": every case must run under at least 3");
  }

  void readMasked(const PyLiteral& v) {
    if (v.kind == Kind::Other) return;
    if (v.kind != Kind::Bool) {
      problem(v.loc, "CONTRACT masked " + v.text + " is not True or False");
      return;
    }
    c_.masked = v.b;
  }

  void readShapes(const PyLiteral& key, const PyLiteral& v) {
    c_.shapes_loc = key.loc;
    if (v.kind == Kind::Other) return;
    if (v.kind != Kind::String || (v.s != "fixed" && v.s != "parametric")) {
      problem(v.loc, "CONTRACT shapes " + v.text + " is neither \"fixed\" nor \"parametric\"");
      return;
    }
    c_.shapes = v.s;
  }

  void readCases(const PyLiteral& key, const PyLiteral& v) {
    c_.cases_loc = key.loc;
    if (v.kind == Kind::Other) return;
    if (v.kind != Kind::Dict) {
      problem(v.loc, "CONTRACT cases " + v.text + " is not a dict of case ID -> {\"category\": ..., \"params\": {...}}");
      return;
    }
    c_.has_cases = true;
    static const std::regex kCaseId("[A-Za-z0-9_.-]+");
    for (const auto& [id, body] : v.items) {
      if (id.kind == Kind::Other) continue;
      ContractCase cs;
      cs.loc = id.loc;
      if (id.kind != Kind::String || !std::regex_match(id.s, kCaseId)) {
        problem(id.loc, "case ID " + id.text + " is not a string of letters, digits, '_', '.' and '-'");
        if (id.kind == Kind::String) cs.id = id.s;
      } else {
        cs.id = id.s;
      }
      readCase(cs, body);
      c_.cases.push_back(std::move(cs));
    }
    if (!c_.hasCategory("base"))
      problem(key.loc, "CONTRACT has no case of category 'base' (the shapes and values of the model the port is for)");
  }

  void readCase(ContractCase& cs, const PyLiteral& body) {
    const std::string name = cs.id.empty() ? "a case" : "case " + singleQuoted(cs.id);
    if (body.kind == Kind::Other) return;
    if (body.kind != Kind::Dict) {
      problem(body.loc, name + " is " + body.text + ", not a dict {\"category\": ..., \"params\": {...}}");
      return;
    }
    bool has_category = false;
    for (const auto& [k, val] : body.items) {
      if (k.kind == Kind::Other) continue;
      if (k.kind == Kind::String && k.s == "category") {
        has_category = true;
        if (val.kind == Kind::Other) continue;
        if (val.kind != Kind::String) problem(val.loc, "the category of " + name + " is " + val.text + ", not a string");
        else if (!oneOf(val.s, kCategories))
          problem(val.loc, "unknown category " + singleQuoted(val.s) + " of " + name + " (known: " + listOf(kCategories) + ")");
        else cs.category = val.s;
      } else if (k.kind == Kind::String && k.s == "params") {
        if (val.kind == Kind::Other) continue;
        if (val.kind != Kind::Dict) {
          problem(val.loc, "the params of " + name + " are " + val.text + ", not a dict of parameter name -> value");
          continue;
        }
        for (const auto& [pk, pv] : val.items)
          if (pk.kind != Kind::Other && pk.kind != Kind::String)
            problem(pk.loc, "parameter name " + pk.text + " of " + name + " is not a string");
      } else {
        problem(k.loc, "unknown key " + k.text + " in " + name + " (known: category, params)");
      }
    }
    if (!has_category) problem(cs.loc, name + " has no category (one of " + listOf(kCategories) + ")");
  }

  void readCompare(const PyLiteral& v) {
    if (v.kind == Kind::Other) return;
    if (v.kind != Kind::Dict) {
      problem(v.loc, "CONTRACT compare " + v.text + " is not a dict of output name -> comparator");
      return;
    }
    std::optional<std::vector<std::string>> outputs = g_.outputs();
    for (const auto& [name, cmp] : v.items) {
      if (name.kind == Kind::Other) continue;
      if (name.kind != Kind::String) {
        problem(name.loc, "CONTRACT compare key " + name.text + " is not an output name");
        continue;
      }
      if (outputs && std::find(outputs->begin(), outputs->end(), name.s) == outputs->end()) {
        std::string list;
        for (const std::string& o : *outputs) list += (list.empty() ? "" : ", ") + o;
        problem(name.loc, "CONTRACT compare names " + singleQuoted(name.s) + ", which is not in __outputs__ (" + list + ")");
      }
      ContractComparator cmpr;
      cmpr.output = name.s;
      cmpr.loc = name.loc;
      readComparator(cmpr, cmp);
      c_.compare.push_back(std::move(cmpr));
    }
  }

  void readComparator(ContractComparator& cmpr, const PyLiteral& v) {
    const std::string of = " of output " + singleQuoted(cmpr.output);
    if (v.kind == Kind::Other) return;
    if (v.kind != Kind::Dict) {
      problem(v.loc, "the comparator" + of + " is " + v.text + ", not a dict (rtol, atol, pass_rate or max_steps)");
      return;
    }
    for (const auto& [k, val] : v.items) {
      if (k.kind == Kind::Other) continue;
      if (k.kind != Kind::String || !oneOf(k.s, kComparatorKeys)) {
        problem(k.loc, "unknown comparator key " + k.text + of + " (known: " + listOf(kComparatorKeys) + ")");
        continue;
      }
      if (val.kind == Kind::Other) continue;
      if (k.s == "rtol" || k.s == "atol") {
        if (!val.isNumber() || val.number() < 0) {
          problem(val.loc, k.s + of + " is " + val.text + ", not a number >= 0");
          continue;
        }
        (k.s == "rtol" ? cmpr.rtol : cmpr.atol) = val.number();
        (k.s == "rtol" ? cmpr.rtol_loc : cmpr.atol_loc) = val.loc;
      } else if (k.s == "pass_rate") {
        if (!val.isNumber() || !(val.number() > 0 && val.number() <= 1)) {
          problem(val.loc, "pass_rate" + of + " is " + val.text + ", outside (0, 1]: the share of elements that must be close");
          continue;
        }
        cmpr.pass_rate = val.number();
      } else {
        readMaxSteps(cmpr, val, of);
      }
    }
  }

  void readMaxSteps(ContractComparator& cmpr, const PyLiteral& v, const std::string& of) {
    if (v.kind != Kind::Dict) {
      problem(v.loc, "max_steps" + of + " is " + v.text + ", not a dict {\"1\": n1, \"2\": n2} of steps -> elements");
      return;
    }
    bool ok = true;
    for (const auto& [k, n] : v.items) {
      if (k.kind == Kind::Other) {
        ok = false;
        continue;
      }
      std::optional<std::int64_t> steps;
      if (k.kind == Kind::Int) steps = k.i;
      else if (k.kind == Kind::String && !k.s.empty() &&
               std::all_of(k.s.begin(), k.s.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) && k.s.size() < 10)
        steps = std::stoll(k.s);
      if (!steps || *steps < 1) {
        problem(k.loc, "max_steps" + of + " has key " + k.text + ": keys are step counts \"1\", \"2\", ... (>= 1)");
        ok = false;
        continue;
      }
      if (n.kind == Kind::Other) {
        ok = false;
        continue;
      }
      if (n.kind != Kind::Int || n.i < 0) {
        problem(n.loc, "max_steps" + of + " allows " + n.text + " elements at " + k.text +
                           " steps: give a number of elements >= 0");
        ok = false;
      }
    }
    cmpr.max_steps = ok;
  }

  const GoldenSource& g_;
  Contract& c_;
};

}  // namespace

bool knownContractKind(std::string_view kind) { return oneOf(kind, kKinds); }
bool knownContractCategory(std::string_view category) { return oneOf(category, kCategories); }
std::string contractKindList() { return listOf(kKinds); }
std::string contractCategoryList() { return listOf(kCategories); }

std::vector<std::string> requiredCategories(std::string_view kind, bool masked, bool parametric) {
  std::vector<std::string> need;
  if (kind == "reduction" || kind == "norm" || kind == "matmul" || kind == "mlp") need = {"large"};
  else if (kind == "softmax" || kind == "attention") {
    need = {"large"};
    if (masked) need.push_back("neg_inf");
  } else if (kind == "quantize") need = {"large", "zero"};
  else if (kind == "routing" || kind == "moe") need = {"edge"};
  if (parametric) {
    need.push_back("tail");
    need.push_back("prime");
  }
  return need;
}

bool Contract::hasCategory(std::string_view category) const {
  return std::any_of(cases.begin(), cases.end(), [&](const ContractCase& c) { return c.category == category; });
}

std::optional<Contract> readContract(const GoldenSource& golden) {
  Contract c;
  TSNode value = golden.assigned("CONTRACT", &c.loc);
  if (isNull(value)) return std::nullopt;
  PyLiteral top = golden.literal(value);
  if (top.kind != Kind::Dict) {
    c.problems.push_back({top.loc.line ? top.loc : c.loc,
                          "CONTRACT is `" + top.text +
                              "`, not a literal dict: port-check reads the contract from the source without running it"});
    return c;
  }
  c.dict = true;
  ContractReader(golden, c).read(top);
  return c;
}

}  // namespace portcheck::proj

#pragma once
// The correctness contract of a port (docs/contract.md): the `CONTRACT` literal dict of golden.py as
// the PROJ rules read it, with every way it breaks the format (PROJ003) located at its key or value.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/proj/golden_source.h"

namespace portcheck::proj {

// docs/contract.md §3.
bool knownContractKind(std::string_view kind);
bool knownContractCategory(std::string_view category);
std::string contractKindList();      // "elementwise, reduction, ..."
std::string contractCategoryList();  // "base, tail, ..."
// The categories a kind needs besides `base` (§3): `masked` adds neg_inf to softmax / attention,
// parametric shapes add tail and prime to every kind.
std::vector<std::string> requiredCategories(std::string_view kind, bool masked, bool parametric);

struct ContractProblem {
  SrcLoc loc;
  std::string message;
};

struct ContractCase {
  std::string id;
  std::string category;  // "" when absent or not a string
  SrcLoc loc;            // the case ID
};

// One entry of `compare`: an output and its comparator (§4).
struct ContractComparator {
  std::string output;
  SrcLoc loc;  // the output name
  std::optional<double> rtol, atol, pass_rate;
  SrcLoc rtol_loc, atol_loc;
  bool max_steps = false;
};

struct Contract {
  SrcLoc loc;         // the name CONTRACT where it is bound
  bool dict = false;  // a literal dict display; nothing below is read otherwise
  std::optional<std::string> kind;  // a known kind
  SrcLoc kind_loc;
  bool has_seeds = false;
  SrcLoc seeds_loc;
  std::optional<bool> masked;
  std::optional<std::string> shapes;  // "fixed" / "parametric" when given so
  SrcLoc shapes_loc;
  bool has_cases = false;  // `cases` is a dict
  SrcLoc cases_loc;        // the key `cases` (the CONTRACT name when absent)
  std::vector<ContractCase> cases;
  std::vector<ContractComparator> compare;
  std::vector<ContractProblem> problems;  // every way it breaks docs/contract.md §1 and §4, in source order

  bool hasCategory(std::string_view category) const;
};

// The contract golden.py declares; nullopt when it binds no CONTRACT at module level.
std::optional<Contract> readContract(const GoldenSource& golden);

}  // namespace portcheck::proj

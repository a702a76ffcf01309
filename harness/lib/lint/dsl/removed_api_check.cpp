#include "lint/dsl/removed_api_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

constexpr const char* kTileByHand =
    "tile the loop by hand: an outer pl.parallel over the chunks and a pl.range over each chunk inside "
    "`with pl.at(level=pl.Level.CORE_GROUP):` (auto-chunking was removed in pypto#1895)";
constexpr const char* kSplitEntry = "write the split as `optimizations=[pl.split(pl.SplitMode.X)]`";

// Does the expression, or anything inside it, name `pl.<name>`?
bool mentions(const dsl::Function& fn, int e, std::string_view name, int depth = 0) {
  if (e < 0 || depth > dsl::kMaxNesting) return false;
  const dsl::Expr& x = exprOf(fn, e);
  if (x.pl_name == name) return true;
  for (int c : x.children)
    if (mentions(fn, c, name, depth + 1)) return true;
  return false;
}

}  // namespace

bool isRemovedPlApi(std::string_view pl_name) {
  return pl_name == "incore" || pl_name == "auto_incore" || pl_name == "chunked_loop_optimizer" ||
         pl_name == "auto_chunk";
}

void RemovedApiCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file, std::vector<Diagnostic>& out) const {
  auto report = [&](const dsl::Expr& at, const std::string& what, const std::string& compiler_says,
                    const std::string& hint) {
    out.push_back(makeDiagnostic(id(), file.path, at.loc.line, at.loc.col,
                                 what + " was removed from PyPTO; the pinned compiler (e2d0f78) rejects it: \"" +
                                     compiler_says + "\"",
                                 hint));
  };
  for (const dsl::Function& fn : file.functions) {
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      const std::string& op = call.pl_name;
      if (op == "incore" || op == "auto_incore") {
        report(call, "pl." + op + "() (pypto#1819)",
               "Unsupported context manager in with statement",
               "write `with pl.at(level=pl.Level.CORE_GROUP):` (with `optimizations=[pl.split(...)]` for a split)");
        continue;
      }
      if (op == "at") {
        for (const auto& [key, value] : call.kwargs) {
          const dsl::Expr& kw = exprOf(fn, value);
          if (key == "optimization") {
            const bool chunked = mentions(fn, value, "chunked_loop_optimizer");
            report(kw, "pl.at(optimization=...) (pypto#1819)", "Unknown keyword argument 'optimization' in pl.at()",
                   chunked ? kTileByHand : kSplitEntry);
          } else if (key == "split") {
            report(kw, "pl.at(split=...) (pypto#1819)", "Unknown keyword argument 'split' in pl.at()", kSplitEntry);
          } else if (key == "optimizations" && mentions(fn, value, "auto_chunk")) {
            report(kw, "pl.auto_chunk in pl.at(optimizations=[...]) (pypto#1895)",
                   "Unsupported entry in pl.at(optimizations=[...])", kTileByHand);
          }
        }
        continue;
      }
      if (op == "range" || op == "parallel" || op == "unroll") {
        for (const auto& [key, value] : call.kwargs)
          if (key == "chunk" || key == "chunk_policy")
            report(exprOf(fn, value), "pl." + op + "(" + key + "=...) (pypto#1895)",
                   "Unknown keyword argument '" + key + "' in pl." + op + "()", kTileByHand);
      }
    }
  }
}

}  // namespace portcheck

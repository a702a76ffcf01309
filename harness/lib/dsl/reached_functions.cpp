#include "dsl/reached_functions.h"

#include <vector>

namespace portcheck::dsl {

std::set<std::pair<int, int>> reachedFunctions(const ProgramModel& model,
                                               const std::function<bool(const FileModel&)>& root) {
  std::set<std::pair<int, int>> reached;
  std::vector<FunctionRef> work;
  for (FunctionRef r : model.allFunctions())
    if (root(model.files[static_cast<std::size_t>(r.file)]) && reached.insert({r.file, r.function}).second)
      work.push_back(r);
  while (!work.empty()) {
    const Function* fn = model.function(work.back());
    work.pop_back();
    for (int c : fn->calls) {
      const FunctionRef callee = model.callee(*fn, fn->exprs[static_cast<std::size_t>(c)]);
      if (callee.valid() && reached.insert({callee.file, callee.function}).second) work.push_back(callee);
    }
  }
  return reached;
}

}  // namespace portcheck::dsl

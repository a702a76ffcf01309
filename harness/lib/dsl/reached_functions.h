#pragma once
// The functions a program's roots reach: the functions of the files `root` accepts, and every function
// they call through a resolved call, transitively (a pypto-lib stage a port's orchestration calls; not
// a block's own test entry nobody calls).
#include <functional>
#include <set>
#include <utility>

#include "dsl/dsl_model.h"

namespace portcheck::dsl {

// (file index, function index) of every reached function, the roots included.
std::set<std::pair<int, int>> reachedFunctions(const ProgramModel& model,
                                               const std::function<bool(const FileModel&)>& root);

}  // namespace portcheck::dsl

#pragma once
// The order of the dispatch sites of inline stages (@pl.jit.inline, a pypto-lib block's stage) and what
// each one waits for. The runtime dispatches a stage's pl.at scopes where the run calls the stage, and
// a task waits only for the tasks whose tensors it touches (simpler's tensor map): two stages that read
// the same input and write different outputs run side by side (a layer's q and k/v projections).
//
// A call's tensors, named as its caller names them: what it uses (every name its arguments read,
// followed through the views made of them: `q_heads = pl.reshape(q_rot, ...)` is q_rot) and what it
// defines (the names its result is assigned to, and the arguments the stage writes: pl.store /
// pl.assemble / subscript writes into a parameter, or a kernel call with it as pl.Out / pl.InOut). A
// later call waits for an earlier one when one defines what the other uses or defines (read after
// write, write after write, write after read). The scopes of one call keep their order.
#include <cstddef>
#include <vector>

#include "cost/schedule_cost.h"
#include "dsl/dsl_model.h"

namespace portcheck::cost {

// Where one stage dispatch site comes from: the call of the stage that makes it and the pl.at scope's
// statement in the stage.
struct StageCallRef {
  const dsl::Function* caller = nullptr;  // nullptr: not known (the site keeps waiting for every earlier one)
  const dsl::Expr* call = nullptr;
  const dsl::Function* stage = nullptr;
  int scope_stmt = -1;
};

// Puts the stage sites `sites[first ...]` (one StageCallRef each, in order) in call order and gives each
// one the sites it waits for: every site before `first` (the orchestration's own dispatches), the
// earlier scopes of its own call, and the earlier calls it depends on. Leaves the sites as they are
// (each waiting for every earlier one) when a call is not known or the stages are called from more than
// one function or from another stage.
void orderStageSites(const dsl::ProgramModel& model, std::vector<KernelCost>& sites, std::size_t first,
                     const std::vector<StageCallRef>& calls);

}  // namespace portcheck::cost

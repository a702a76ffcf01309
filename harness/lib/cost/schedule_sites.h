#pragma once
// Helpers of scheduleCost (schedule_cost.cpp) about its dispatch sites: which cores a site's tasks
// take, whether its work is decided per task, and the sites of the smaller of two exclusive branches.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "advice/task_graph.h"
#include "cost/schedule_cost.h"
#include "dsl/dsl_model.h"
#include "sram/sram_estimator.h"

namespace portcheck::cost {

// The cores the tasks of a kernel spread over: the AIVs for a vector-only kernel, else the AICs (a cube
// kernel, or a mixed one, which takes a cluster of one AIC and its AIVs per task).
int coresFor(const std::vector<sram::KernelEstimate>& kernels, const std::vector<int>& estimates, Platform platform);

// "AIV" for a vector-only kernel, "AIC" for a cube-only one, "MIX" for one using both (a cluster).
std::string coreKind(const std::vector<sram::KernelEstimate>& kernels, const std::vector<int>& estimates);

// Whether `kernel`'s region holds an `if` not decided when the model is built: the trips it is taken
// may depend on the values a task is called with (`if i * 32 < valid:`), so the work is counted task by
// task where the tasks' values are followed.
bool holdsRunTimeBranch(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel);

// Whether `kernel` is a `with pl.spmd(n)` scope whose code reads its block index
// (`pl.tile.get_block_idx()`): its blocks work differently, so each is counted as the task it is.
bool readsBlockIndex(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel);

// An if / else around dispatch sites decided by run-time data takes one branch each time: the sites of
// the smaller branch (their dispatches times their tasks' serial time) are dropped from the run, inner
// branches first. A branch with a site whose count or work is not known is left as it is.
void dropSmallerBranches(const dsl::Function& fn, const advice::TaskGraph& g, std::size_t first_site,
                         const std::set<int>& undecided, const std::vector<std::int64_t>& site_gm, ScheduleCost& cost);

}  // namespace portcheck::cost

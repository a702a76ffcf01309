#include "advice/advice_check.h"
#include "advice/fuse_producer_consumer_check.h"
#include "advice/grow_low_usage_check.h"
#include "advice/loop_into_scope_check.h"
#include "advice/merge_parallel_scopes_check.h"
#include "advice/online_softmax_check.h"
#include "advice/serial_blocks_check.h"
#include "advice/shrink_over_capacity_check.h"

namespace portcheck {

const std::vector<std::unique_ptr<AdviceCheck>>& adviceChecks() {
  static const std::vector<std::unique_ptr<AdviceCheck>> checks = [] {
    std::vector<std::unique_ptr<AdviceCheck>> v;
    v.push_back(std::make_unique<FuseProducerConsumerCheck>());
    v.push_back(std::make_unique<GrowLowUsageCheck>());
    v.push_back(std::make_unique<ShrinkOverCapacityCheck>());
    v.push_back(std::make_unique<MergeParallelScopesCheck>());
    v.push_back(std::make_unique<LoopIntoScopeCheck>());
    v.push_back(std::make_unique<OnlineSoftmaxCheck>());
    v.push_back(std::make_unique<SerialBlocksCheck>());
    return v;
  }();
  return checks;
}

}  // namespace portcheck

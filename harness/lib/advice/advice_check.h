#pragma once
// Fusion and tiling advice (FUSE family): checks that read a unit's DSL model and SRAM estimates and
// suggest a concrete rewrite, naming the kernels, tiles and numbers. One class per rule, registered
// in adviceChecks(); no state between calls (units are linted in parallel).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "lint/mem/mem_check.h"

namespace portcheck {

class AdviceCheck {
 public:
  virtual ~AdviceCheck() = default;
  virtual std::string_view id() const = 0;
  virtual void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const = 0;
};

// Every FUSE check, in ID order.
const std::vector<std::unique_ptr<AdviceCheck>>& adviceChecks();

}  // namespace portcheck

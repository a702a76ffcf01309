#pragma once
// DSL126: an output buffer no kernel writes on any path: a pl.Out tensor of an entry or orchestration
// (or of a kernel nothing in the unit calls) that is passed on, read or rebound but never written,
// and a tensor pl.create_tensor makes in the orchestration that is returned or handed to kernels
// that never write it.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class UnwrittenOutputCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL126"; }
  void check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

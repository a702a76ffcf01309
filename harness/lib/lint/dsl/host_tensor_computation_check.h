#pragma once
// DSL123: host computation inside an entry, an orchestration or an incore function: a torch / numpy call,
// a torch tensor method on a tensor parameter (`x.clone()`, `out.copy_(...)`), or augmented assignment
// to a tensor parameter's data (`out += ...`).
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class HostTensorComputationCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL123"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

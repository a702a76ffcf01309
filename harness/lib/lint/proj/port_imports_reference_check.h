#pragma once
// PROJ006: a file of the port other than golden.py imports golden.py or the reference in original/:
// a port that calls the reference proves nothing.
#include "lint/proj/project_check.h"

namespace portcheck {

class PortImportsReferenceCheck : public ProjectCheck {
 public:
  std::string_view id() const override { return "PROJ006"; }
  void check(const Workspace& ws, const Project& project, std::span<const SourceFile> sources,
             std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck

#include "golden/static_causes.h"

#include "rules/wrong_numbers.h"

namespace portcheck {

void noteStaticCauses(std::vector<Diagnostic>& run, const std::vector<Diagnostic>& lint) {
  for (Diagnostic& d : run) {
    if (d.rule != "GOLD001" && d.rule != "GOLD002") continue;
    for (const Diagnostic& l : lint) {
      if (!predictsWrongNumbers(l.rule)) continue;
      d.notes.push_back({l.file, l.line, l.column,
                         "[" + l.rule + "] found by the lint, a known cause of exactly this: " + l.message});
    }
  }
}

}  // namespace portcheck

#include "golden/checks/first_wrong_task_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

std::string withCommas(std::int64_t n) {
  std::string s = std::to_string(n < 0 ? -n : n);
  for (int at = static_cast<int>(s.size()) - 3; at > 0; at -= 3) s.insert(static_cast<std::size_t>(at), ",");
  return n < 0 ? "-" + s : s;
}

// "task 4 of 160 (div_k, r0=0)"
std::string taskText(const RunLocalisation& l, const FirstWrongTask& t) {
  std::string s = t.index ? "task " + std::to_string(*t.index) : std::string("a task");
  if (l.tasks) s += " of " + std::to_string(*l.tasks);
  std::string args;
  for (const auto& [name, value] : t.scalars) args += ", " + name + "=" + value;
  return s + " (" + (t.kernel.empty() ? std::string("?") : t.kernel) + args + ")";
}

}  // namespace

RunLocalisation FirstWrongTaskCheck::displayed(const RunRecord& run, const RunLocalisation& l) const {
  RunLocalisation out = l;
  if (out.first && !out.first->file.empty()) out.first->file = mapRunPaths(run, out.first->file);
  for (std::string& note : out.notes) note = mapRunPaths(run, note);
  return out;
}

std::string FirstWrongTaskCheck::summary(const RunLocalisation& l) const {
  const std::string where = l.first && l.first->index ? ", first at " + taskText(l, *l.first) : std::string();
  if (l.verdict == "port_bug") return "the port's IR, run in torch, fails the golden too: a port bug" + where + " [GOLD025]";
  if (l.verdict == "toolchain")
    return "the port's IR, run in torch, passes the golden: the toolchain is wrong" + where + " [GOLD025]";
  if (l.verdict == "orchestration")
    return "the IR and every task agree with torch: the order or dependencies of the tasks are wrong [GOLD025]";
  return "where it goes wrong could not be told [GOLD025]";
}

Diagnostic FirstWrongTaskCheck::report(const RunRecord& run, const RunLocalisation& raw) const {
  const RunLocalisation l = displayed(run, raw);
  const std::string subject = "case " + l.case_label + " of " + run.project + " on " + run.platform;
  std::string message, hint;
  if (l.verdict == "port_bug") {
    message = subject + " is a port bug: its own IR, run in torch (PyPTO's torch_codegen), fails the golden too";
    if (l.first && l.first->index)
      message += "; the first task that stores a wrong element of '" + l.first->output + "' is " + taskText(l, *l.first) +
                 ", " + withCommas(l.first->mismatches) + " wrong element" + (l.first->mismatches == 1 ? "" : "s") +
                 " from " + formatIndex(l.first->first_index);
    else if (l.first)
      message += "; no task stores the " + withCommas(l.first->mismatches) + " wrong element" +
                 (l.first->mismatches == 1 ? "" : "s") + " of '" + l.first->output + "' (from " +
                 formatIndex(l.first->first_index) + "): the program never writes them";
    hint = "fix the program: the kernel at this line computes or stores the wrong values, or one whose result it "
           "reads does; the simulator is not at fault";
  } else if (l.verdict == "toolchain") {
    message = subject + " is a toolchain fault, not the port's: its IR, run in torch, passes the golden";
    if (l.first) {
      message += ", but " + taskText(l, *l.first) + " gives a '" + l.first->param + "' that differs from its kernel's torch "
                 "replay on the task's own inputs: " + withCommas(l.first->mismatches) + " of " +
                 withCommas(l.first->elements) + " " + l.first->dtype + " elements";
      if (!l.first->first_index.empty())
        message += ", at " + formatIndex(l.first->first_index) + " " + formatNumber(l.first->simulated) + " simulated, " +
                   formatNumber(l.first->replayed) + " in torch";
    }
    hint = "the compiled kernel (ptoas, pto-isa, the kernel compiler or the simulator) is wrong here: run `port-check "
           "doctor --run`" + (l.first && !l.first->self_test.empty() ? " (its self-test " + l.first->self_test + ")" : "") +
           " and docs/doctor.md; do not loosen the tolerance";
  } else if (l.verdict == "orchestration") {
    message = subject + ": its IR passes the golden in torch and each of the " + std::to_string(l.tasks_compared) +
              " tasks compared agrees with its kernel's torch replay, yet the outputs differ: the order or "
              "dependencies of the tasks (orchestration, runtime) are at fault";
    hint = "look at what the orchestration passes between tasks (an intermediate written by one task and read by "
           "another without an In/Out direction that orders them)";
  } else {
    message = subject + ": where it first goes wrong could not be told";
    hint = "see the notes";
  }
  std::string file = run.display_file;
  int line = 0;
  if (l.first && !raw.first->file.empty() && !workspaceRelative(run, raw.first->file).empty()) {
    file = l.first->file;  // displayed(): already workspace-relative
    line = l.first->line;
  }
  Diagnostic d = makeDiagnostic(ruleId(), file, line, 0, std::move(message));
  d.hint = hint;
  if (l.first && l.first->never_written > 0 && l.first->index)
    d.notes.push_back({"", 0, 0, withCommas(l.first->never_written) + " of the wrong elements no task writes"});
  if (l.first && l.verdict == "port_bug" && l.first->index)
    d.notes.push_back({"", 0, 0, "the task that stores a wrong value may read it from an earlier task: look at its inputs too"});
  if (l.first && file == run.display_file && !l.first->file.empty())
    d.notes.push_back({"", 0, 0, "the kernel is at " + l.first->file + ":" + std::to_string(l.first->line)});
  for (const std::string& note : l.notes) d.notes.push_back({"", 0, 0, note});
  return d;
}

}  // namespace portcheck

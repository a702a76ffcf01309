// The JSON report (docs/json-format.md, schema docs/schema/port-check-report.schema.json).
#include <cmath>
#include <nlohmann/json.hpp>

#include "output/emitter.h"
#include "output/json_model.h"
#include "output/sram_table.h"
#include "rules/catalogue.h"

namespace portcheck {

using nlohmann::json;

namespace {

json orNull(int v) { return v > 0 ? json(v) : json(nullptr); }
json orNull(const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); }
json orNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

}  // namespace

json diagnosticToJson(const Diagnostic& d, const EmitOptions& options) {
  const RuleInfo* info = Catalogue::builtin().find(d.rule);
  json j = {{"rule", d.rule},
            {"name", info ? json(info->name) : json(nullptr)},
            {"severity", toString(d.severity)},
            {"source", toString(d.source)},
            {"file", d.file.empty() ? json(nullptr) : json(d.file)},
            {"line", orNull(d.line)},
            {"column", orNull(d.column)},
            {"end_line", orNull(d.end_line)},
            {"end_column", orNull(d.end_column)},
            {"message", d.message},
            {"hint", d.hint.empty() ? json(nullptr) : json(d.hint)},
            {"doc", d.doc.empty() ? json(nullptr) : json(docLink(d.doc, options))},
            {"suppress", "# port-check: ignore[" + d.rule + "]"}};
  if (d.sram)
    j["sram"] = {{"function", d.sram->function}, {"space", d.sram->space}, {"used", d.sram->used},
                 {"limit", d.sram->limit}};
  else
    j["sram"] = nullptr;
  json notes = json::array();
  for (const DiagnosticNote& n : d.notes)
    notes.push_back({{"file", n.file.empty() ? json(nullptr) : json(n.file)},
                     {"line", orNull(n.line)},
                     {"column", orNull(n.column)},
                     {"message", n.message}});
  j["notes"] = notes;
  return j;
}

json sramRowToJson(const SramRow& r) {
  json largest = json::array();
  for (const SramTile& t : r.largest)
    largest.push_back({{"name", t.name}, {"bytes", t.bytes}, {"file", t.file.empty() ? json(nullptr) : json(t.file)},
                       {"line", orNull(t.line)}});
  auto pct = utilisationPercent(r);
  return {{"project", r.project},   {"function", r.function}, {"core", r.core.empty() ? json(nullptr) : json(r.core)},
          {"space", r.space},       {"estimate", orNull(r.estimate)}, {"actual", orNull(r.actual)},
          {"estimate_from", orNull(r.estimate_from)},
          {"actual_source", r.actual ? json(r.actual_source.empty() ? "compile" : r.actual_source) : json(nullptr)},
          {"capacity", r.capacity}, {"utilisation", pct ? json(*pct) : json(nullptr)},
          {"tiles", r.tiles},       {"largest", largest}};
}

namespace {

json optionalNumber(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// [["1", 16], ["2", 0]]: ordered pairs, as the adapter gave them.
json countsToJson(const std::vector<std::pair<std::string, std::int64_t>>& counts) {
  json out = json::array();
  for (const auto& [key, n] : counts) out.push_back(json::array({key, n}));
  return out;
}

json goldenOutputToJson(const GoldenOutput& o) {
  json first = nullptr;
  if (!o.first_mismatch.empty())
    first = {{"index", o.first_mismatch}, {"actual", o.first_actual}, {"expected", o.first_expected}};
  return {{"name", o.name},
          {"verdict", o.verdict},
          {"passed", o.passed},
          {"dtype", o.dtype},
          {"shape", o.shape},
          {"expected_shape", o.expected_shape},
          {"elements", o.elements},
          {"mismatches", o.mismatches},
          {"mismatch_share", o.mismatch_share},
          {"max_abs_err", optionalNumber(o.max_abs_err)},
          {"max_rel_err", optionalNumber(o.max_rel_err)},
          {"first_mismatch", first},
          {"worst_index", o.worst_index.empty() ? json(nullptr) : json(o.worst_index)},
          {"nan", {{"actual", o.nan_actual}, {"expected", o.nan_expected}}},
          {"inf", {{"actual", o.inf_actual}, {"expected", o.inf_expected}}},
          {"never_written", o.never_written},
          {"rtol", o.rtol},
          {"atol", o.atol},
          {"tolerance_source", o.tolerance_source.empty() ? json(nullptr) : json(o.tolerance_source)},
          {"case", o.case_id.empty() ? json(nullptr) : json(o.case_id)},
          {"comparator", o.comparator.empty() ? json("allclose") : json(o.comparator)},
          {"pass_rate", optionalNumber(o.pass_rate)},
          {"close_share", optionalNumber(o.close_share)},
          {"max_steps", countsToJson(o.max_steps)},
          {"steps", countsToJson(o.steps)},
          {"mean_abs_err", optionalNumber(o.mean_abs_err)},
          {"mean_rel_err", optionalNumber(o.mean_rel_err)},
          {"cosine", optionalNumber(o.cosine)},
          {"ulp_histogram", countsToJson(o.ulp_histogram)}};
}

json contractToJson(const GoldenRun& g) {
  if (!g.contract) return nullptr;
  json cases = json::array();
  for (const GoldenCase& c : g.cases) {
    json outputs = json::array();
    for (const GoldenOutput& o : c.outputs) outputs.push_back(goldenOutputToJson(o));
    cases.push_back({{"id", c.id},
                     {"category", c.category},
                     {"seed", c.seed},
                     {"passed", c.passed},
                     {"status", c.status},
                     {"frozen", c.frozen.empty() ? json(nullptr) : json(c.frozen)},
                     {"seconds", c.seconds},
                     {"outputs", outputs}});
  }
  json gaming = json::array();
  for (const GoldenGamingFinding& f : g.gaming)
    gaming.push_back({{"rule", f.rule},
                      {"output", f.output},
                      {"input", f.input.empty() ? json(nullptr) : json(f.input)},
                      {"cases", f.cases},
                      {"detail", f.detail},
                      {"bytes_changed", f.bytes_changed},
                      {"first_offset", f.first_offset},
                      {"side", f.side.empty() ? json(nullptr) : json(f.side)},
                      {"source", orNull(f.source)},
                      {"kernel", orNull(f.kernel)}});
  return {{"kind", g.contract_kind},
          {"seeds", g.seeds},
          {"failed_case", g.failed_case.empty() ? json(nullptr) : json(g.failed_case)},
          {"cases", cases},
          {"gaming", gaming}};
}

// GOLD025's figures (docs/first-wrong-task.md); null when the run did not look.
json localisationToJson(const GoldenRun& g) {
  if (!g.localisation) return nullptr;
  const RunLocalisation& l = *g.localisation;
  json first = nullptr;
  if (l.first) {
    const FirstWrongTask& t = *l.first;
    first = {{"index", orNull(t.index)},
             {"task_id", orNull(t.task_id)},
             {"kernel", orNull(t.kernel)},
             {"file", orNull(t.file)},
             {"line", t.line},
             {"param", orNull(t.param)},
             {"output", orNull(t.output)},
             {"scalars", t.scalars},
             {"mismatches", t.mismatches},
             {"elements", t.elements},
             {"never_written", t.never_written},
             {"first_index", t.first_index},
             {"max_abs_err", optionalNumber(t.max_abs_err)},
             {"simulated", optionalNumber(t.simulated)},
             {"replayed", optionalNumber(t.replayed)},
             {"dtype", orNull(t.dtype)},
             {"self_test", orNull(t.self_test)}};
  }
  return {{"case", l.case_label},
          {"verdict", l.verdict},
          {"ir_passed", l.ir_passed ? json(*l.ir_passed) : json(nullptr)},
          {"ir_calls", l.ir_calls},
          {"tasks", orNull(l.tasks)},
          {"tasks_compared", l.tasks_compared},
          {"first_wrong_task", first},
          {"notes", l.notes},
          {"seconds", l.seconds}};
}

}  // namespace

json goldenRunToJson(const GoldenRun& g) {
  json outputs = json::array();
  for (const GoldenOutput& o : g.outputs) outputs.push_back(goldenOutputToJson(o));
  return {{"project", g.project},
          {"platform", g.platform},
          {"status", g.status},
          {"failure", g.failure.empty() ? json(nullptr) : json(g.failure)},
          {"rule", g.rule.empty() ? json(nullptr) : json(g.rule)},
          {"detail", g.detail},
          {"seed", g.seed},
          {"rtol", g.rtol},
          {"atol", g.atol},
          {"tolerance_source", g.tolerance_source.empty() ? json(nullptr) : json(g.tolerance_source)},
          {"seconds", g.seconds},
          {"out_dir", g.out_dir.empty() ? json(nullptr) : json(g.out_dir)},
          {"outputs", outputs},
          {"replayed", g.replayed},
          {"contract", contractToJson(g)},
          {"localisation", localisationToJson(g)}};
}

// The device-time model's figures of a schedule row (docs/perf-model.md); µs rounded to 0.01.
json deviceTimeToJson(const ScheduleRow& r) {
  auto us = [](double v) { return std::round(v * 100.0) / 100.0; };
  json kernels = json::array();
  for (const KernelTime& k : r.kernel_times)
    kernels.push_back({{"kernel", k.kernel},
                       {"core", k.core},
                       {"tasks", k.tasks},
                       {"task_us", us(k.task_us)},
                       {"bound", k.bound},
                       {"pipes_us", {{"MTE2", us(k.mte2_us)}, {"MTE1", us(k.mte1_us)}, {"CUBE", us(k.cube_us)},
                                     {"FIXP", us(k.fixp_us)}, {"VECTOR", us(k.vector_us)}, {"MTE3", us(k.mte3_us)},
                                     {"SCALAR", us(k.scalar_us)}}},
                       {"busy_us", us(k.busy_us)},
                       {"start_us", us(k.start_us)},
                       {"end_us", us(k.end_us)},
                       {"critical_us", us(k.critical_us)}});
  json path = json::array();
  for (const CriticalStepRow& c : r.critical_path)
    path.push_back({{"kernel", c.kernel}, {"tasks", c.tasks}, {"us", us(c.us)}, {"waits", c.waits}});
  return {{"us", r.device_us ? json(us(*r.device_us)) : json(nullptr)},
          {"aic_cores", r.aic},
          {"aiv_cores", r.aiv},
          {"aic_utilisation", std::round(r.aic_utilisation * 1000.0) / 1000.0},
          {"aiv_utilisation", std::round(r.aiv_utilisation * 1000.0) / 1000.0},
          {"bound", r.bound},
          {"kernels", kernels},
          {"critical_path", path}};
}

json scheduleRowToJson(const ScheduleRow& r) {
  auto figure = [](const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); };
  return {{"project", r.project},
          {"kernels", r.kernels},
          {"tasks", figure(r.tasks)},
          {"gm_bytes", figure(r.gm_bytes)},
          {"critical_gm_bytes", figure(r.critical_gm_bytes)},
          {"unknown", r.unknown},
          {"device", deviceTimeToJson(r)}};
}

json reportToJson(const Report& report, const EmitOptions& options) {
  json stages = json::array();
  for (const StageStatus& s : report.run.stages)
    stages.push_back({{"name", s.name}, {"state", toString(s.state)}, {"detail", s.detail}});
  json diags = json::array();
  for (const Diagnostic& d : report.diagnostics) diags.push_back(diagnosticToJson(d, options));
  json sram = json::array();
  for (const SramRow& r : report.sram) sram.push_back(sramRowToJson(r));
  json golden = json::array();
  for (const GoldenRun& g : report.golden) golden.push_back(goldenRunToJson(g));
  json schedule = json::array();
  for (const ScheduleRow& r : report.schedule) schedule.push_back(scheduleRowToJson(r));
  return {{"schema_version", kJsonSchemaVersion},
          {"tool", {{"name", "port-check"}, {"version", report.run.tool_version},
                    {"catalogue_version", report.run.catalogue_version}}},
          {"run", {{"platform", report.run.platform}, {"toolchain", report.run.toolchain}, {"stages", stages},
                   {"files", report.run.files}, {"seconds", report.run.seconds}}},
          {"summary", {{"errors", report.count(Severity::Error)}, {"warnings", report.count(Severity::Warning)},
                       {"infos", report.count(Severity::Info)}, {"files", report.run.files.size()}}},
          {"diagnostics", diags},
          {"sram", sram},
          {"golden", golden},
          {"schedule", schedule}};
}

std::string emitJson(const Report& report, const EmitOptions& options) {
  // Compiler text may hold any bytes: replace invalid UTF-8 instead of throwing.
  return reportToJson(report, options).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace portcheck

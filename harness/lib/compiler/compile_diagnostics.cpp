#include "compiler/compile_diagnostics.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/text.h"
#include "output/sram_table.h"
#include "rules/catalogue.h"

namespace portcheck {
namespace {

// A location fit for a diagnostic: a file in the user's sources or in the output folder. Anything
// else (the compiler's own sources, an unmapped temporary path) is dropped rather than leaked.
SourceLocation reportable(const SourceLocation& loc, const PathMapper& paths) {
  if (!loc.known()) return {};
  if (paths.isUserFile(loc.file) || paths.isOutputFile(loc.file)) return loc;
  return {};
}

Diagnostic make(std::string_view rule, const SourceLocation& where, const std::string& message, const PathMapper& paths,
                std::string hint = {}) {
  SourceLocation loc = reportable(where, paths);
  return makeDiagnostic(rule, loc.file, loc.line, loc.column, paths.mapText(message), std::move(hint));
}

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", v);
  return buf;
}

// "Failed to compile function 'f'" -- the compiler's own prefix for a codegen unit.
std::string unitPrefix(const CompilerError& e) {
  if (e.unit == "group") {
    std::string members;
    for (std::size_t i = 0; i < e.members.size(); ++i) members += (i ? ", " : "") + e.members[i];
    return "Failed to compile group '" + e.function + "' [" + members + "]";
  }
  if (e.unit == "orchestration") return "Failed to generate orchestration '" + e.function + "'";
  if (e.unit == "function") return "Failed to compile function '" + e.function + "'";
  return "Failed to compile '" + e.function + "'";
}

}  // namespace

std::vector<DiagnosticNote> largestTileNotes(const std::vector<SramTile>& tiles, const std::string& space,
                                             std::size_t max_notes) {
  std::vector<DiagnosticNote> notes;
  for (const SramTile& t : tiles) {
    if (notes.size() >= max_notes) break;
    DiagnosticNote n;
    n.file = t.file;
    n.line = t.file.empty() ? 0 : t.line;
    if (t.name.find(' ') != std::string::npos)  // not a tile: the reserved pipe ring
      n.message = t.name + " takes " + std::to_string(t.bytes) + " bytes of " + space;
    else if (!t.file.empty())  // located: the user's variable, the compiler's SSA name beside it
      n.message = "tile '" + SourceLocator::userVariable(t.name) + "' (" + t.name + ") takes " +
                  std::to_string(t.bytes) + " bytes of " + space;
    else
      n.message = "tile '" + t.name + "' takes " + std::to_string(t.bytes) + " bytes of " + space;
    notes.push_back(std::move(n));
  }
  return notes;
}

std::vector<Diagnostic> compilerErrorDiagnostics(const CompilerError& e, const PathMapper& paths) {
  std::vector<Diagnostic> out;
  auto withSram = [&](Diagnostic& d) {
    if (e.space.empty() && e.function.empty()) return;
    if (!e.used && !e.limit) return;
    d.sram = SramFigures{e.function, e.space, e.used.value_or(0), e.limit.value_or(0)};
  };

  if (e.rule == "COMP001") {
    Diagnostic d = make("COMP001", e.location, e.message, paths, e.help);
    if (!e.note.empty()) d.notes.push_back(DiagnosticNote{d.file, d.line, d.column, paths.mapText(e.note)});
    out.push_back(std::move(d));
  } else if (e.rule == "COMP002") {
    std::string message = e.space + " buffer usage (" + std::to_string(e.used.value_or(0)) +
                          " bytes) exceeds platform limit (" + std::to_string(e.limit.value_or(0)) + " bytes)";
    if (!e.function.empty()) message += " in '" + e.function + "'";
    Diagnostic d = make("COMP002", e.location, message, paths);
    withSram(d);
    if (!e.note.empty()) d.notes.push_back(DiagnosticNote{d.file, d.line, d.column, paths.mapText(e.note)});
    if (e.attributed && !e.function.empty())
      d.notes.push_back(DiagnosticNote{d.file, d.line, d.column,
                                       "the compiler names no function: '" + e.function + "' is the kernel whose " +
                                           e.space + " buffers add up to " + std::to_string(e.used.value_or(0)) +
                                           " bytes in the last pass dump"});
    for (DiagnosticNote& n : largestTileNotes(e.largest_tiles, e.space)) d.notes.push_back(std::move(n));
    out.push_back(std::move(d));
  } else if (e.rule == "COMP003") {
    Diagnostic d = make("COMP003", e.location, e.message, paths, e.help);
    if (e.kind == "oom") withSram(d);
    if (!e.note.empty()) d.notes.push_back(DiagnosticNote{d.file, d.line, d.column, paths.mapText(e.note)});
    for (DiagnosticNote& n : largestTileNotes(e.largest_tiles, e.space)) d.notes.push_back(std::move(n));
    out.push_back(std::move(d));
  } else if (e.rule == "COMP004") {
    Diagnostic d = make("COMP004", e.location, e.message, paths);
    for (DiagnosticNote& n : largestTileNotes(e.largest_tiles, e.space.empty() ? "on-chip memory" : e.space))
      d.notes.push_back(std::move(n));
    out.push_back(std::move(d));
  } else if (e.rule == "COMP005") {
    Diagnostic d = make("COMP005", e.location, e.message, paths);
    withSram(d);
    out.push_back(std::move(d));
  } else if (e.rule == "COMP006" || e.rule == "COMP008" || e.rule == "COMP009") {
    Diagnostic d = make(e.rule, e.location, unitPrefix(e) + ": " + e.message, paths);
    out.push_back(std::move(d));
  } else if (e.rule == "COMP007") {
    SourceLocation primary = e.location;
    Diagnostic d = make("COMP007", primary, unitPrefix(e) + ": ptoas: " + e.message, paths);
    SourceLocation user = reportable(e.user_location, paths);
    if (user.known() && user.file != d.file)
      d.notes.push_back(DiagnosticNote{user.file, user.line, user.column, "the failing op was generated from this line"});
    if (d.file.empty() && user.known()) {  // the .pto is not reportable: point at the user's line
      d.file = user.file;
      d.line = user.line;
      d.column = user.column;
    }
    out.push_back(std::move(d));
  } else if (e.rule == "COMP013") {
    Diagnostic d = make("COMP013", e.location, unitPrefix(e) + ": " + e.message, paths);
    const bool mixed = std::any_of(e.members.begin(), e.members.end(), [](const std::string& m) { return endsWith(m, "_aic"); }) &&
                       std::any_of(e.members.begin(), e.members.end(), [](const std::string& m) { return endsWith(m, "_aiv"); });
    if (mixed)
      d.notes.push_back(DiagnosticNote{"", 0, 0,
                                       "a mixed cube+vector group: ptoas 0.27 dies in PTOToEmitC on such a scope without "
                                       "a split; optimizations=[pl.split(pl.SplitMode.UP_DOWN)] on its pl.at compiles"});
    out.push_back(std::move(d));
  } else if (e.rule == "COMP010") {
    Diagnostic d = make("COMP010", e.location, "internal compiler error: " + e.message, paths);
    out.push_back(std::move(d));
  } else {  // COMP011
    Diagnostic d = make("COMP011", e.location, e.message, paths);
    // pl.reshape of a GM tensor, or pl.create_tensor, inside incore code: a tile there (DSL125 sees it).
    if (e.message.find("to be a TensorType or DistributedTensorType, but got TileType") != std::string::npos)
      d.hint = "a tensor reshaped (pl.reshape) or created (pl.create_tensor) inside a pl.at scope or InCore function "
               "is an on-chip tile there: do the reshape or the allocation in the orchestration and pass the tensor "
               "in (DSL125)";
    for (const std::string& l : e.quoted_lines) d.notes.push_back(DiagnosticNote{"", 0, 0, paths.mapText(l)});
    out.push_back(std::move(d));
  }
  return out;
}

Diagnostic compilerWarningDiagnostic(const CompilerWarning& w, const PathMapper& paths) {
  std::string message = w.message + (w.check.empty() ? "" : " [" + w.check + "]");
  Diagnostic d = make("COMP012", w.location, message, paths);
  if (w.dump_location.known() && w.dump_location.file != d.file)
    d.notes.push_back(DiagnosticNote{w.dump_location.file, w.dump_location.line, w.dump_location.column,
                                     "in the " + w.phase + " pass dump"});
  return d;
}

Diagnostic perfHintDiagnostic(const PerfHint& h, const PathMapper& paths) {
  Diagnostic d = make("PERF001", h.location, "[" + h.code + "] " + h.check + ": " + h.message, paths);
  // The rule's hint speaks of narrow rows (PH001); the other families say what to change themselves.
  if (h.code.rfind("PH-MR-", 0) == 0)
    d.hint = "the pipeline's stages share buffers because they do not all fit the space: shrink or drop "
             "co-live tiles, or lower the pl.pipeline stage count to what fits";
  else if (h.code.rfind("PH-AT-", 0) == 0)
    d.hint = "AutoTileMatmulL0 left this matmul as written: follow the message (shapes the cube fractal "
             "divides, operands in Mat)";
  return d;
}

std::vector<Diagnostic> sramDiagnostics(const std::vector<SramRow>& rows, const SourceLocator& locator,
                                        const CompileAnalysisOptions& options,
                                        const std::vector<std::pair<std::string, std::string>>& reported) {
  std::vector<Diagnostic> out;
  std::map<std::string, std::vector<const SramRow*>> by_function;
  std::vector<std::string> order;
  for (const SramRow& r : rows) {
    if (!by_function.count(r.function)) order.push_back(r.function);
    by_function[r.function].push_back(&r);
  }
  for (const std::string& fn : order) {
    std::optional<SourceLocation> where = locator.kernel(fn);
    SourceLocation loc = where.value_or(SourceLocation{});
    const SramRow* dominant = nullptr;
    double dominant_pct = -1;
    for (const SramRow* r : by_function[fn]) {
      auto pct = utilisationPercent(*r);
      if (!pct || !r->actual) continue;
      if (*r->actual > r->capacity &&
          std::find(reported.begin(), reported.end(), std::make_pair(r->function, r->space)) == reported.end()) {
        Diagnostic d = makeDiagnostic(
            "MEM101", loc.file, loc.line, loc.column,
            "'" + fn + "' uses " + std::to_string(*r->actual) + " bytes of " + r->space + ", above the platform's " +
                std::to_string(r->capacity) + " bytes (" + percent(*pct) + ")");
        d.sram = SramFigures{fn, r->space, *r->actual, r->capacity};
        d.notes = largestTileNotes(r->largest, r->space);
        out.push_back(std::move(d));
      }
      if (*pct > dominant_pct) {
        dominant_pct = *pct;
        dominant = r;
      }
    }
    if (dominant && dominant_pct < options.low_usage_percent) {
      Diagnostic d = makeDiagnostic(
          "MEM102", loc.file, loc.line, loc.column,
          "'" + fn + "' uses only " + percent(dominant_pct) + " of " + dominant->space + " (" +
              std::to_string(*dominant->actual) + " of " + std::to_string(dominant->capacity) +
              " bytes), its most used on-chip space");
      d.sram = SramFigures{fn, dominant->space, *dominant->actual, dominant->capacity};
      d.notes = largestTileNotes(dominant->largest, dominant->space);
      out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace portcheck

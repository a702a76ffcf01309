// analyzeCompile: runs every compile-output parser over one CompileRecord and turns the facts into
// diagnostics and SRAM rows. The parsers live one per output kind beside this file.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <system_error>

#include "compiler/codegen_error_parser.h"
#include "compiler/compile_diagnostics.h"
#include "compiler/compile_record.h"
#include "compiler/compile_text.h"
#include "compiler/legacy_memory_report_parser.h"
#include "compiler/memory_dump_parser.h"
#include "compiler/memory_error_parser.h"
#include "compiler/nanobind_trap_hint.h"
#include "compiler/parser_error_parser.h"
#include "compiler/path_mapper.h"
#include "compiler/perf_hint_parser.h"
#include "compiler/python_exception_parser.h"
#include "compiler/source_locator.h"
#include "compiler/sram_usage.h"
#include "compiler/verifier_report_parser.h"
#include "compiler/warning_parser.h"
#include "core/text.h"

namespace portcheck {
namespace {

constexpr std::uintmax_t kMaxReadBytes = 64u << 20;  // a pass dump of a large program stays far below this
constexpr std::size_t kQuotedLines = 8;

std::optional<std::string> readSmallFile(const std::filesystem::path& p) {
  std::error_code ec;
  if (p.empty() || !std::filesystem::is_regular_file(p, ec)) return std::nullopt;
  if (std::filesystem::file_size(p, ec) > kMaxReadBytes || ec) return std::nullopt;
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return sanitizeUtf8(ss.str());
}

bool isParserExceptionType(const std::string& type) {
  static const std::set<std::string> kParser = {"ParserError",           "ParserSyntaxError",   "ParserTypeError",
                                                "UndefinedVariableError", "SSAViolationError",   "UnsupportedFeatureError",
                                                "InvalidOperationError",  "ScopeIsolationError"};
  return kParser.count(shortTypeName(type)) > 0;
}

// A parser error the adapter described field by field (docs/compile-adapter.md): the rendered block
// when it has one, else parser_message / parser_file / parser_line / parser_column / parser_hint /
// parser_note.
std::vector<RenderedParserError> adapterParserError(const AdapterResult& adapter) {
  auto field = [&](const char* key) {
    auto it = adapter.extra.find(key);
    return it == adapter.extra.end() ? std::string() : it->second;
  };
  if (std::string block = field("rendered"); !block.empty()) {
    auto parsed = parseRenderedParserErrors(logLines(block));
    if (!parsed.empty()) return parsed;
  }
  std::string message = field("parser_message");
  if (message.empty()) return {};
  RenderedParserError e;
  e.message = stripAnsi(message);
  e.file = field("parser_file");
  e.line = std::atoi(field("parser_line").c_str());
  e.column = std::atoi(field("parser_column").c_str());
  if (e.line <= 0) e.file.clear();
  e.help = field("parser_hint");
  e.note = field("parser_note");
  return {e};
}

CompilerError parserError(const RenderedParserError& r, const PathMapper& paths) {
  CompilerError e;
  e.rule = "COMP001";
  e.kind = "parser";
  e.message = r.message;
  e.help = r.help;
  e.note = r.note;
  if (!r.file.empty()) e.location = paths.location(r.file, r.line, r.column);
  return e;
}

// The innermost traceback frame inside the user's sources.
SourceLocation userFrame(const std::vector<TracebackFrame>& frames, const PathMapper& paths) {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    std::string display = paths.map(it->file);
    if (paths.isUserFile(display)) return SourceLocation{display, it->line, 0};
  }
  return {};
}

CompilerError internalError(const PythonException& ex, const PathMapper& paths) {
  CompilerError e;
  e.rule = "COMP010";
  e.kind = "internal";
  e.exception = ex.type;
  CppMessage cpp = splitCppMessage(ex.message);
  if (cpp.check_failed)
    e.check_failed = CheckFailed{cpp.check_failed->expr,
                                 cpp.check_failed->source.empty() ? "" : paths.map(cpp.check_failed->source),
                                 cpp.check_failed->line};
  std::string payload = cpp.payload;
  if (auto span = takeTrailingSpan(payload)) e.location = paths.location(span->file, span->line, span->column);
  e.message = payload;
  static const std::regex kNamed(R"((?:for|function|in) '([A-Za-z_]\w*)')");
  std::smatch m;
  if (std::regex_search(payload, m, kNamed)) e.function = m[1].str();
  return e;
}

CompilerError unrecognised(const std::string& summary, const std::vector<std::string>& quoted, SourceLocation where) {
  CompilerError e;
  e.rule = "COMP011";
  e.kind = "unrecognised";
  e.message = summary;
  e.quoted_lines = quoted;
  e.location = std::move(where);
  return e;
}

// The part of an exception message worth quoting: its first line (colour and tails removed).
std::string firstLine(const std::string& text) {
  std::string t = trimCopy(dropCppTraceback(text));
  std::size_t nl = t.find('\n');
  return nl == std::string::npos ? t : t.substr(0, nl);
}

struct Dumps {
  std::optional<std::filesystem::path> allocate;  // *_after_AllocateMemoryAddr.py
  std::optional<PassDump> allocate_dump;
  std::optional<PassDump> before_overflow;        // MemoryReuse, else the last dump
};

Dumps readDumps(const std::filesystem::path& out_dir) {
  Dumps d;
  if (out_dir.empty()) return d;
  d.allocate = findPassDump(out_dir, "AllocateMemoryAddr");
  if (d.allocate)
    if (auto text = readSmallFile(*d.allocate)) d.allocate_dump = parsePassDump(*text, "AllocateMemoryAddr");
  std::optional<std::filesystem::path> before = findPassDump(out_dir, "MemoryReuse");
  if (!before) before = lastPassDump(out_dir);
  if (before)
    if (auto text = readSmallFile(*before)) d.before_overflow = parsePassDump(*text, passNameOf(*before));
  return d;
}

const DumpFunction* findFunction(const std::optional<PassDump>& dump, const std::string& name) {
  if (!dump) return nullptr;
  for (const DumpFunction& f : dump->functions)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<SramTile> largestIn(const DumpFunction* fn, const std::string& space, const SourceLocator& locator) {
  if (!fn) return {};
  for (const SpaceUsage& u : spaceUsage(*fn, &locator))
    if (space.empty() || u.space == space) return u.largest;
  return {};
}

// Where an error with no location of its own happened, from what port-check knows of the function.
void attributeLocation(CompilerError& e, const std::vector<CompilerWarning>& warnings, const SourceLocator& locator,
                       const Dumps& dumps, const PathMapper& paths) {
  if (e.location.known() && paths.isUserFile(e.location.file)) return;
  if (e.rule == "COMP002") {
    // The MemoryReuse warning about the same space points at the pl.at scope.
    for (const CompilerWarning& w : warnings)
      if (w.check == "MemoryReuse" && w.message.find("memory space " + e.space + " ") != std::string::npos &&
          w.location.known() && paths.isUserFile(w.location.file)) {
        e.location = w.location;
        return;
      }
  }
  if (e.rule == "COMP008") return;  // a toolchain problem, not a place in the program
  if (e.function.empty()) return;
  if (e.rule == "COMP009") {  // the first misplaced tile, else the function
    const DumpFunction* fn = findFunction(dumps.allocate_dump, e.function);
    if (!fn) fn = findFunction(dumps.before_overflow, e.function);
    if (fn)
      for (const DumpTile& t : fn->tiles)
        if (auto loc = locator.tile(fn->name, t.var)) {
          e.location = *loc;
          return;
        }
  }
  if (e.location.known()) return;  // e.g. a .pto location the user note already maps
  if (auto loc = locator.kernel(e.function)) {
    e.location = *loc;
    return;
  }
  // A group (a mixed scope's _aic / _aiv pair) is where its members are.
  for (const std::string& member : e.members)
    if (auto loc = locator.kernel(member)) {
      e.location = *loc;
      return;
    }
}

}  // namespace

CompileAnalysisOptions compileAnalysisOptions(const std::map<std::string, std::string>& config_options) {
  CompileAnalysisOptions o;
  auto it = config_options.find("mem.low_usage_percent");
  if (it != config_options.end()) {
    char* end = nullptr;
    double v = std::strtod(it->second.c_str(), &end);
    if (end && *end == '\0' && v > 0 && v <= 100) o.low_usage_percent = v;
  }
  return o;
}

CompileAnalysis analyzeCompile(const CompileRecord& record, Platform platform, const CompileAnalysisOptions& options) {
  CompileAnalysis a;
  PathMapper paths(record);
  std::vector<std::string> lines = logLines(record.log);
  std::error_code ec;
  const bool have_out = !record.out_dir.empty() && std::filesystem::is_directory(record.out_dir, ec);

  SourceLocator locator(paths);
  if (have_out) locator.indexGeneratedPto(record.out_dir);

  // Warnings: the log, then passes_dump/*.log (skipping what the log already said).
  a.warnings = parseWarningLines(lines, paths);
  if (have_out) {
    std::vector<std::filesystem::path> logs;
    for (std::filesystem::directory_iterator it(record.out_dir / "passes_dump", ec), end; !ec && it != end;
         it.increment(ec))
      if (it->path().extension() == ".log") logs.push_back(it->path());
    std::sort(logs.begin(), logs.end());
    for (const auto& p : logs) {
      auto text = readSmallFile(p);
      if (!text) continue;
      for (CompilerWarning& w : parsePassLog(*text, paths.displayOf(p), paths)) {
        bool dup = std::any_of(a.warnings.begin(), a.warnings.end(), [&](const CompilerWarning& o) {
          return o.message == w.message && (o.check == w.check || w.check.empty());
        });
        if (dup) continue;
        // "variable 'x' in function 'f'": the user's line of x.
        static const std::regex kVar(R"(variable '([^']+)')");
        static const std::regex kFn(R"(function '([^']+)')");
        std::smatch mv, mf;
        if (std::regex_search(w.message, mv, kVar)) {
          std::string fn = std::regex_search(w.message, mf, kFn) ? mf[1].str() : std::string();
          if (auto loc = locator.tile(fn, mv[1].str())) w.location = *loc;
        }
        a.warnings.push_back(std::move(w));
      }
    }
  }

  // Perf hints: report/perf_hints.log, plus any hint lines in the log itself.
  if (have_out)
    if (auto text = readSmallFile(record.out_dir / "report" / "perf_hints.log"))
      a.perf_hints = parsePerfHints(logLines(*text), paths);
  for (PerfHint& h : parsePerfHints(lines, paths)) {
    bool dup = std::any_of(a.perf_hints.begin(), a.perf_hints.end(), [&](const PerfHint& o) {
      return o.code == h.code && o.message == h.message && o.location.file == h.location.file &&
             o.location.line == h.location.line && o.location.column == h.location.column;
    });
    if (!dup) a.perf_hints.push_back(std::move(h));
  }
  a.perf_hint_summary = parsePerfHintSummary(lines, paths);

  // SRAM: the AllocateMemoryAddr dump, else the legacy text report.
  Dumps dumps = readDumps(have_out ? record.out_dir : std::filesystem::path());
  if (dumps.allocate_dump) {
    a.memory_dump = paths.displayOf(*dumps.allocate);
    for (const DumpFunction& fn : dumps.allocate_dump->functions)
      for (const SpaceUsage& u : spaceUsage(fn, &locator)) {
        SramRow row = toSramRow(u, record.project, platform);
        (fn.isCompute() ? a.sram : a.sram_noncompute).push_back(std::move(row));
      }
  } else if (have_out) {
    if (auto p = findLegacyMemoryReport(record.out_dir))
      if (auto text = readSmallFile(*p))
        if (auto report = parseLegacyMemoryReport(*text)) {
          a.memory_dump = paths.displayOf(*p);
          for (const LegacyMemoryRow& r : report->rows) {
            SramRow row;
            row.project = record.project;
            row.function = r.function;
            row.core = report->function_kind;
            row.space = r.space;
            row.actual = r.used_bytes;  // an estimate within [used_min, used_max]: the report rounds to 0.1 KB
            row.capacity = r.limit_bytes;  // the limit that compiler enforced (192 KB Vec in old builds)
            row.tiles = r.memrefs;
            a.sram.push_back(std::move(row));
          }
          a.legacy_memory_report = std::move(*report);
        }
  }

  // Errors. Parser blocks first (they exit without a traceback), then the exception, then codegen.
  // A traceback in the log of a compile that succeeded (a logged, handled exception) is not its failure.
  const bool adapter_failed = record.adapter.present && !record.adapter.status.empty() && record.adapter.status != "ok";
  std::optional<PythonException> ex = adapterException(record.adapter);
  if (!ex && (record.exit_code != 0 || adapter_failed)) ex = parseLoggedException(lines);
  std::vector<RenderedParserError> rendered = parseRenderedParserErrors(lines);
  if (rendered.empty() && ex) rendered = parseRenderedParserErrors(logLines(ex->message));
  if (rendered.empty() && record.adapter.present) rendered = adapterParserError(record.adapter);
  for (const RenderedParserError& r : rendered) a.errors.push_back(parserError(r, paths));

  std::vector<CodegenFailure> failure_lines = parseFailureLines(lines);
  bool exception_handled = !rendered.empty();
  if (ex && !exception_handled) {
    const std::string short_type = shortTypeName(ex->type);
    if (isParserExceptionType(ex->type)) {
      CompilerError e;
      e.rule = "COMP001";
      e.kind = "parser";
      e.exception = ex->type;
      e.message = firstLine(ex->message);
      e.location = userFrame(ex->frames, paths);
      a.errors.push_back(std::move(e));
      exception_handled = true;
    } else if (isVerifierReport(ex->message)) {
      for (CompilerError& e : parseVerifierReport(ex->type, ex->message, paths)) a.errors.push_back(std::move(e));
      exception_handled = true;
    } else if (auto mem = parseMemoryError(ex->type, ex->message, paths)) {
      a.errors.push_back(std::move(*mem));
      exception_handled = true;
    } else if (short_type == "InternalError") {
      a.errors.push_back(internalError(*ex, paths));
      exception_handled = true;
    } else if (isCodegenTable(ex->message) || !failure_lines.empty()) {
      exception_handled = true;  // reported with the codegen failures below
    }
  }

  // Codegen / ptoas failures: the log lines, the exception's table and report/codegen_errors.txt.
  {
    std::vector<CodegenFailure> from_table, from_file;
    std::string report_display;
    std::string exception_type = ex ? ex->type : std::string();
    if (ex && isCodegenTable(ex->message)) from_table = parseCodegenTable(ex->message);
    if (have_out) {
      std::filesystem::path file = record.out_dir / "report" / "codegen_errors.txt";
      if (auto text = readSmallFile(file)) {
        from_file = parseCodegenErrorsFile(*text);
        if (from_table.empty()) from_table = parseCodegenTable(*text);
        report_display = paths.displayOf(file);
      }
    }
    for (const CodegenFailure& f : mergeCodegenFailures(failure_lines, from_table, from_file)) {
      CompilerError e = classifyCodegenFailure(f, exception_type, paths);
      e.report = report_display;
      a.errors.push_back(std::move(e));
    }
  }

  // OOM attribution and the largest tiles behind each memory error.
  for (CompilerError& e : a.errors) {
    if (e.rule == "COMP002" && dumps.before_overflow && e.used && e.limit) {
      if (const DumpFunction* fn = attributeOverflow(*dumps.before_overflow, e.space, *e.used, *e.limit)) {
        e.function = fn->name;
        e.attributed = true;
        e.largest_tiles = largestIn(fn, e.space, locator);
      }
    } else if (e.rule == "COMP003" && e.kind == "oom") {
      const DumpFunction* fn = findFunction(dumps.allocate_dump, e.function);
      if (!fn) fn = findFunction(dumps.before_overflow, e.function);
      e.largest_tiles = largestIn(fn, e.space, locator);
      if (fn && !fn->isCompute())
        e.help = "the tiles of '" + e.function + "' sit in an " + fn->type +
                 " function, outside any incore kernel: move the tile operations into `with "
                 "pl.at(level=pl.Level.CORE_GROUP):` (or an InCore function) and keep each kernel's live tiles "
                 "under the limit";
    } else if (e.rule == "COMP004") {
      e.largest_tiles = largestIn(findFunction(dumps.before_overflow, e.function), "", locator);
    }
    attributeLocation(e, a.warnings, locator, dumps, paths);
  }

  // A failed compile that matched no known form is never a silent pass.
  const bool process_failed = record.exit_code != 0 || adapter_failed || (ex && !exception_handled);
  const bool driver_reports = record.timed_out || record.signal != 0;
  if (a.errors.empty() && process_failed && !driver_reports) {
    std::vector<std::string> quoted = lastLines(lines, kQuotedLines);
    std::string summary;
    SourceLocation where;
    if (ex) {
      summary = "the compiler failed with " + ex->type + ": " + paths.mapText(firstLine(ex->message));
      where = userFrame(ex->frames, paths);
      if (quoted.empty()) quoted = lastLines(logLines(ex->message), kQuotedLines);
    } else if (adapter_failed) {
      summary = "the compile ended with adapter status '" + record.adapter.status + "' and no error port-check recognises";
    } else {
      summary = "the compiler exited with code " + std::to_string(record.exit_code) +
                " and printed nothing port-check recognises";
    }
    if (!quoted.empty()) summary += "; its last lines follow";
    a.errors.push_back(unrecognised(summary, quoted, where));
  }
  if (ex && !exception_handled && !a.errors.empty() && a.errors.back().rule != "COMP011") {
    // An unrecognised exception beside recognised output (e.g. a warning): still report it.
    a.errors.push_back(unrecognised("the compiler failed with " + ex->type + ": " + paths.mapText(firstLine(ex->message)),
                                    lastLines(logLines(ex->message), kQuotedLines), userFrame(ex->frames, paths)));
  }

  // Diagnostics.
  std::vector<std::pair<std::string, std::string>> reported;
  for (const CompilerError& e : a.errors) {
    if (!e.function.empty() && !e.space.empty()) reported.emplace_back(e.function, e.space);
    for (Diagnostic& d : compilerErrorDiagnostics(e, paths)) a.diagnostics.push_back(std::move(d));
  }
  for (const CompilerWarning& w : a.warnings) a.diagnostics.push_back(compilerWarningDiagnostic(w, paths));
  for (const PerfHint& h : a.perf_hints) a.diagnostics.push_back(perfHintDiagnostic(h, paths));
  if (a.perf_hints.empty() && a.perf_hint_summary && a.perf_hint_summary->hints > 0) {
    PerfHint h;
    h.code = "summary";
    h.check = "perf_hint";
    h.message = std::to_string(a.perf_hint_summary->hints) + " hint(s) across " +
                std::to_string(a.perf_hint_summary->sites) + " site(s); see " + a.perf_hint_summary->path +
                " (not found in the output folder)";
    a.diagnostics.push_back(perfHintDiagnostic(h, paths));
  }
  for (Diagnostic& d : sramDiagnostics(a.sram, locator, options, reported)) a.diagnostics.push_back(std::move(d));
  addNanobindTrapHints(a.diagnostics, ex ? record.log + "\n" + ex->message : record.log);

  a.succeeded = !process_failed && !driver_reports &&
                std::none_of(a.diagnostics.begin(), a.diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error && startsWith(d.rule, "COMP"); });
  return a;
}

}  // namespace portcheck

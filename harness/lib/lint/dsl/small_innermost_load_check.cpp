#include "lint/dsl/small_innermost_load_check.h"

#include <cctype>

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

}  // namespace

// Mirrors the compiler's PH001 TileInnermostDimGranularity hint on explicit loads and stores:
// a GM transfer whose contiguous run is under the L2 cache line (512 B on a2a3, 128 B on a5).
void SmallInnermostLoadCheck::checkFile(const DslCheckContext& ctx, const dsl::FileModel& file,
                                        std::vector<Diagnostic>& out) const {
  bool a5 = ctx.settings.platform == Platform::A5;
  std::int64_t threshold = a5 ? 128 : 512;
  std::string backend = a5 ? "a5" : "a2a3";
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl()) continue;
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      std::string_view base = opBase(call.pl_name);
      if (call.pl_name.rfind("tensor.", 0) == 0 || (base != "load" && base != "store")) continue;
      const dsl::Value* tile = nullptr;
      if (base == "load") tile = fn.valueOf(c);
      else tile = fn.valueOf(fn.arg(call, 0, "tile"));
      if (!tile || tile->type.kind != dsl::ValueKind::Tile) continue;
      const dsl::TypeInfo& t = tile->type;
      auto row = t.innermostBytes();
      if (!row || *row >= threshold || t.shape.dims.empty()) continue;
      std::int64_t cols = *t.shape.dims.back();
      if (cols <= 1) continue;  // column vectors are not row transfers
      std::string msg = "tile." + std::string(base) + " has innermost dim = " + std::to_string(*row) + "B (tile " +
                        lower(dsl::dtypeName(t.dtype)) + "[" + std::to_string(cols) +
                        "], target_memory=" + std::string(dsl::memSpaceName(t.space)) + ")";
      if (auto total = t.bytes(); total && *row > 0)
        msg += "; moves " + std::to_string(*total) + "B as " + std::to_string(*total / *row) + " x " +
               std::to_string(*row) + "B rows";
      msg += "; recommended >= " + std::to_string(threshold) + "B for backend " + backend +
             " (the compiler reports PH001 TileInnermostDimGranularity)";
      int bits = dsl::dtypeBits(t.dtype);
      std::string hint = "Consider increasing tile shape on the innermost axis";
      if (bits > 0)
        hint += ": at least " + std::to_string(threshold * 8 / bits) + " " + std::string(dsl::dtypeName(t.dtype)) +
                " elements per row (fewer rows per tile keeps the size), or suppress with a recorded measurement";
      out.push_back(makeDiagnostic("DSL117", file.path, call.loc.line, call.loc.col, msg, hint));
    }
  }
}

}  // namespace portcheck

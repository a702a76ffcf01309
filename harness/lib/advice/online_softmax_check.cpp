#include "advice/online_softmax_check.h"

#include <set>
#include <tuple>
#include <unordered_map>

#include "advice/advice_text.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// The key blocks pypto-lib's online_softmax_prepare / online_softmax_update are written for.
constexpr std::int64_t kKeyBlock = 128;
// The whole key axis in one tile is flagged from two blocks on.
constexpr std::int64_t kLongAxis = 2 * kKeyBlock;

std::string_view opOf(const dsl::Expr& call) { return call.opName(); }

bool isMatmul(std::string_view op) {
  return op == "matmul" || op == "matmul_acc" || op == "batch_matmul" || op == "batch_matmul_acc";
}

enum Tag : unsigned { kScores = 1, kMax = 2, kProbs = 4 };

struct Finding {
  int line = 0;                       // the P x V matmul
  std::vector<std::int64_t> scores;   // static shape of the tile the row max reads
  int dtype_bits = 32;
};

// Data-flow over one kernel body (statements [first, last) of `fn`), calls in evaluation order: a
// value carries the tags of the values it is computed from; a row max of scores tags a max, an exp of
// something built from both tags probabilities, and a matmul reading probabilities after a row sum of
// them closes the pattern. A max that is loop-carried (m = maximum(m, ...)) is the online form already.
std::optional<Finding> scan(const dsl::Function& fn, int first, int last) {
  std::unordered_map<int, unsigned> tags;  // value -> tags
  auto tagOf = [&](int e) -> unsigned {
    if (e < 0) return 0;
    const dsl::Expr& x = fn.exprs[static_cast<std::size_t>(e)];
    unsigned t = 0;
    if (x.value >= 0)
      if (auto it = tags.find(x.value); it != tags.end()) t |= it->second;
    if (x.kind == dsl::ExprKind::Name || x.kind == dsl::ExprKind::Attribute || x.kind == dsl::ExprKind::Subscript)
      if (x.value >= 0 && fn.values[static_cast<std::size_t>(x.value)].def_expr >= 0) {
        int d = fn.values[static_cast<std::size_t>(x.value)].def_expr;
        if (auto it = tags.find(fn.exprs[static_cast<std::size_t>(d)].value); it != tags.end()) t |= it->second;
      }
    return t;
  };
  bool summed = false;
  std::optional<Finding> found;
  std::vector<std::int64_t> scores;
  int dtype_bits = 32;
  for (int c : fn.calls) {
    const dsl::Expr& call = fn.exprs[static_cast<std::size_t>(c)];
    if (call.stmt < first || call.stmt >= last || call.pl_name.empty()) continue;
    std::string_view op = opOf(call);
    unsigned in = 0;
    for (int a : call.args) in |= tagOf(a);
    for (const auto& kw : call.kwargs) in |= tagOf(kw.second);
    if (isMatmul(op) && (in & kProbs) && summed && !scores.empty() && !found)
      found = Finding{call.loc.line, scores, dtype_bits};
    unsigned outTag = in;
    if (isMatmul(op) && !(in & kProbs)) outTag |= kScores;
    if (op == "row_max" && (in & kScores)) {
      outTag |= kMax;
      if (!call.args.empty()) {
        int a = call.args[0];
        const dsl::Expr& ax = fn.exprs[static_cast<std::size_t>(a)];
        if (ax.value >= 0) {
          const dsl::Value& v = fn.values[static_cast<std::size_t>(ax.value)];
          if (v.type.shape.fullyStatic()) {
            scores.clear();
            for (const dsl::Dim& d : v.type.shape.dims) scores.push_back(*d);
            dtype_bits = dsl::dtypeBits(v.type.dtype);
          }
        }
      }
    }
    if (op == "exp" && (in & kScores) && (in & kMax)) outTag |= kProbs;
    if (op == "row_sum" && (in & kProbs)) summed = true;
    if (call.value >= 0) tags[call.value] |= outTag;
  }
  if (!found) return std::nullopt;
  // A running max carried across loop iterations (`m = pl.maximum(m, pl.row_max(s))`, or through a
  // name `m_run = m_new`) is the online form already.
  for (const dsl::Value& v : fn.values)
    if (v.loop_carried && v.def_stmt >= first && v.def_stmt < last && v.def_expr >= 0 && (tagOf(v.def_expr) & kMax))
      return std::nullopt;
  return found;
}

}  // namespace

void OnlineSoftmaxCheck::check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const {
  std::set<std::tuple<int, int, int>> seen;
  for (const sram::KernelEstimate& k : ctx.kernels) {
    if (!seen.insert({k.file_index, k.function_index, k.region}).second) continue;
    const dsl::Function* fn = ctx.program.function({k.file_index, k.function_index});
    if (!fn) continue;
    int first = 0, last = static_cast<int>(fn->stmts.size());
    if (k.region >= 0 && k.region < static_cast<int>(fn->regions.size())) {
      first = fn->regions[static_cast<std::size_t>(k.region)].first;
      last = fn->regions[static_cast<std::size_t>(k.region)].last;
    }
    std::optional<Finding> f = scan(*fn, first, last);
    if (!f || f->scores.size() < 2) continue;
    const std::int64_t keys = f->scores.back();
    if (keys < kLongAxis) continue;
    std::int64_t rows = 1;
    for (std::size_t i = 0; i + 1 < f->scores.size(); ++i) rows *= f->scores[i];
    const std::int64_t elem = std::max(1, f->dtype_bits / 8);
    std::vector<std::int64_t> block = f->scores;
    block.back() = kKeyBlock;
    std::string base = k.kernel;
    for (std::string_view suffix : {"_aic", "_aiv"})
      if (base.size() > suffix.size() && base.ends_with(suffix)) base.resize(base.size() - suffix.size());
    Diagnostic d = makeDiagnostic(
        id(), k.file, f->line, 1,
        "kernel '" + base + "' takes the softmax over the whole key axis (" + std::to_string(keys) +
            " keys: scores " + advice::shapeText(f->scores) + ", " + std::to_string(rows * keys * elem) +
            " bytes) before the matmul with V: rewrite it in online-softmax form, a loop over key blocks of " +
            std::to_string(kKeyBlock) + " with a running row max and sum rescaling the output " +
            "(pypto-lib/online_softmax_prepare + online_softmax_update, as in projects/flash_attention_prefill); "
            "the scores tile drops to " + advice::shapeText(block) + " (" + std::to_string(rows * kKeyBlock * elem) +
            " bytes) and no longer grows with the sequence");
    d.notes.push_back({k.file, k.line, 0, "the kernel"});
    out.push_back(std::move(d));
  }
}

}  // namespace portcheck

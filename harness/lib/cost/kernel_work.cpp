#include "cost/kernel_work.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "perf/device_spec.h"
#include "perf/task_time.h"
#include "perf/vector_cycles.h"

namespace portcheck::cost {

namespace {

using dsl::Expr;
using dsl::Function;
using dsl::Value;

// An op of the scalar unit: pl.read / pl.write of one element (of a GM tensor or a tile), or an op on
// scalars only (a cast, index arithmetic) with no on-chip operand.
bool scalarOp(const Function& fn, const Expr& call, std::string_view op, const Value& result) {
  if (op == "read" || op == "write") return true;
  auto array = [](const Value& v) {
    return v.on_chip || v.type.kind == dsl::ValueKind::Tile || v.type.kind == dsl::ValueKind::Tensor;
  };
  if (array(result)) return false;
  for (int a : call.args)
    if (const Value* v = fn.valueOf(a); v && array(*v)) return false;
  return true;
}

// Ops whose result is a view of their operand: a view of a GM tensor in incore code is the load of
// the viewed region.
bool isViewOp(std::string_view op) {
  return op == "reshape" || op == "slice" || op == "view" || op == "reinterpret_view" || op == "transpose_view";
}

// Ops that only declare or name a buffer: no pipe works for them.
bool isDeclaration(std::string_view op) {
  return op == "create" || op == "create_tile" || op == "create_tensor" || op == "full" || op == "alloc" ||
         op == "yield_" || op == "range" || op == "parallel" || op == "spmd" || op == "at" || op == "const" ||
         op.rfind("get_", 0) == 0 || isViewOp(op);
}

// Ops that make a new buffer rather than compute into one: no implicit load of their operands.
bool createsBuffer(std::string_view op) {
  return op == "create" || op == "full" || op == "create_tile" || op == "create_tensor";
}

bool isMatmul(std::string_view op) { return op.find("matmul") != std::string_view::npos || op == "gemv"; }

// The bytes of `tile`'s elements in `gm`'s element type (what a load or store of it moves).
std::optional<std::int64_t> movedBytes(const dsl::TypeInfo& tile, const Value* gm) {
  dsl::TypeInfo moved = tile;
  if (gm && gm->type.dtype != dsl::DType::Unknown) moved.dtype = gm->type.dtype;
  return moved.bytes();
}

// The bytes of the region a subscript of GM tensor `base` names, from its indices under `env` when the
// model gave the region no static type: `a:b` spans b - a, `k0:k0 + K` spans K without knowing k0, an
// omitted bound is the dimension's, an index (no slice) spans 1, dimensions not written span whole.
std::optional<std::int64_t> subscriptRegionBytes(const Function& fn, const Expr& sub, const Value& base, const Env& env) {
  if (sub.kind != dsl::ExprKind::Subscript || sub.children.size() < 2 || !base.type.shape.rank_known) return std::nullopt;
  const int bits = dsl::dtypeBits(base.type.dtype);
  if (bits == 0) return std::nullopt;
  const std::vector<dsl::Dim>& dims = base.type.shape.dims;
  std::vector<int> idx(sub.children.begin() + 1, sub.children.end());
  if (idx.size() == 1) {  // x[a:b, c:d] may hold its indices in one tuple
    const Expr& t = fn.exprs[static_cast<std::size_t>(idx[0])];
    if (t.kind == dsl::ExprKind::Tuple) idx = t.children;
  }
  if (idx.size() > dims.size()) return std::nullopt;
  std::int64_t elements = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    std::optional<std::int64_t> extent;
    if (i >= idx.size()) {
      extent = dims[i];
    } else if (const Expr& x = fn.exprs[static_cast<std::size_t>(idx[i])]; x.kind != dsl::ExprKind::Slice) {
      extent = 1;
    } else if (x.args.size() == 3) {
      const int lo = x.args[0], hi = x.args[1];
      const std::optional<std::int64_t> a = lo < 0 ? std::optional<std::int64_t>(0) : evalIndex(fn, lo, env);
      const std::optional<std::int64_t> b = hi < 0 ? dims[i] : evalIndex(fn, hi, env);
      if (a && b) {
        extent = *b - *a;
      } else if (lo >= 0 && hi >= 0) {
        const Expr& h = fn.exprs[static_cast<std::size_t>(hi)];
        if (h.kind == dsl::ExprKind::BinOp && h.name == "+" && h.children.size() == 2 && sameIndexExpr(fn, h.children[0], lo, 0))
          extent = evalIndex(fn, h.children[1], env);
      }
    }
    if (!extent || *extent < 0) return std::nullopt;
    elements *= *extent;
  }
  return (elements * bits + 7) / 8;
}

// The bytes of a shape list (`[1, HEAD_DIM]`) of `src`'s element type, under `env`.
std::optional<std::int64_t> shapeListBytes(const Function& fn, int list, const Value& src, const Env& env) {
  const int bits = dsl::dtypeBits(src.type.dtype);
  if (list < 0 || bits == 0) return std::nullopt;
  const Expr& l = fn.exprs[static_cast<std::size_t>(list)];
  if (l.kind != dsl::ExprKind::List && l.kind != dsl::ExprKind::Tuple) return std::nullopt;
  std::int64_t elements = 1;
  for (int d : l.children) {
    const std::optional<std::int64_t> n = evalIndex(fn, d, env);
    if (!n || *n < 0) return std::nullopt;
    elements *= *n;
  }
  return (elements * bits + 7) / 8;
}

std::int64_t dimOr(const dsl::TypeInfo& t, std::size_t i, std::int64_t fallback) {
  if (!t.shape.rank_known || i >= t.shape.dims.size() || !t.shape.dims[i]) return fallback;
  return *t.shape.dims[i];
}

// Where a matmul's left operand is among its arguments: after the accumulator of an accumulating one
// (`pl.matmul_acc(acc, lhs, rhs)`, `pl.gemv_acc`), first otherwise.
std::size_t leftOperand(std::string_view op) { return op.ends_with("_acc") ? 1 : 0; }

// The contraction length of a matmul: the left operand's last dimension (its first when transposed).
std::int64_t contraction(const Function& fn, const Expr& call, std::string_view op) {
  const std::size_t left = leftOperand(op);
  const Value* a = call.args.size() <= left ? nullptr : fn.valueOf(call.args[left]);
  if (!a || !a->type.shape.rank_known || a->type.shape.dims.empty()) return 0;
  const std::size_t rank = a->type.shape.dims.size();
  bool a_trans = false;
  const int t = fn.arg(call, 99, "a_trans");
  if (t >= 0) {
    const Expr& v = fn.exprs[static_cast<std::size_t>(t)];
    a_trans = v.kind == dsl::ExprKind::Bool && v.number.isInt() && v.number.i == 1;
  }
  return dimOr(a->type, a_trans && rank >= 2 ? rank - 2 : rank - 1, 0);
}

}  // namespace

KernelWork& KernelWork::operator+=(const KernelWork& o) {
  mte2_bytes += o.mte2_bytes;
  mte3_bytes += o.mte3_bytes;
  mte1_bytes += o.mte1_bytes;
  fixp_bytes += o.fixp_bytes;
  cube_macs_b16 += o.cube_macs_b16;
  cube_macs_b8 += o.cube_macs_b8;
  cube_macs_b32 += o.cube_macs_b32;
  vector_cycles += o.vector_cycles;
  vector_fixed_cycles += o.vector_fixed_cycles;
  instructions += o.instructions;
  iterations = std::max(iterations, o.iterations);
  return *this;
}

KernelWork splitWork(const KernelWork& work, std::int64_t parts) {
  if (parts <= 1) return work;
  KernelWork w;
  w.mte2_bytes = work.mte2_bytes / parts;
  w.mte3_bytes = work.mte3_bytes / parts;
  w.mte1_bytes = work.mte1_bytes / parts;
  w.fixp_bytes = work.fixp_bytes / parts;
  w.cube_macs_b16 = work.cube_macs_b16 / parts;
  w.cube_macs_b8 = work.cube_macs_b8 / parts;
  w.cube_macs_b32 = work.cube_macs_b32 / parts;
  w.vector_cycles = work.vector_cycles / static_cast<double>(parts);
  w.vector_fixed_cycles = work.vector_fixed_cycles / static_cast<double>(parts);
  w.instructions = (work.instructions + parts - 1) / parts;
  w.iterations = std::max<std::int64_t>(1, work.iterations / parts);
  return w;
}

KernelWork grownTiles(const KernelWork& work, std::int64_t factor) {
  if (factor <= 1) return work;
  KernelWork w = work;
  const double f = static_cast<double>(factor);
  w.instructions = (work.instructions + factor - 1) / factor;
  w.iterations = std::max<std::int64_t>(1, work.iterations / factor);
  w.vector_fixed_cycles = work.vector_fixed_cycles / f;
  w.vector_cycles = work.vector_cycles - work.vector_fixed_cycles + w.vector_fixed_cycles;
  return w;
}

namespace {

// A stretch of statements [first, last) of a kernel's function.
struct StmtSpan {
  int first = 0, last = 0;
  bool holds(int stmt) const { return stmt >= first && stmt < last; }
};

// Why a size is unknown when a bare `pl.Tensor` parameter has no dtype: the parameter, named.
std::string untypedParameterWhy(const dsl::FileModel& file, const Function& fn, const std::string& param, int stmt) {
  return "dtype of the bare pl.Tensor parameter " + param + " of " + fn.name + " (" + where(file, fn, stmt) +
         "): neither the entry's __main__ call nor a fixture dict of its name gives it";
}

// Where work is counted: a region of a function (a kernel's, or an inline helper's whole body).
struct WorkSite {
  int file_index = -1, function_index = -1, region = -1;
};

// The helpers inlined into a kernel are followed this deep (a cycle stops there).
constexpr int kMaxInlineDepth = 6;

// `work` done `n` times.
KernelWork repeated(const KernelWork& work, std::int64_t n) {
  KernelWork w;
  w.mte2_bytes = work.mte2_bytes * n;
  w.mte3_bytes = work.mte3_bytes * n;
  w.mte1_bytes = work.mte1_bytes * n;
  w.fixp_bytes = work.fixp_bytes * n;
  w.cube_macs_b16 = work.cube_macs_b16 * n;
  w.cube_macs_b8 = work.cube_macs_b8 * n;
  w.cube_macs_b32 = work.cube_macs_b32 * n;
  w.vector_cycles = work.vector_cycles * static_cast<double>(n);
  w.vector_fixed_cycles = work.vector_fixed_cycles * static_cast<double>(n);
  w.instructions = work.instructions * n;
  w.iterations = work.iterations * n;
  return w;
}

// The work of the statements of `site`'s region in `span`, leaving out those in `left_out` (the
// smaller branch of an if / else decided at run time); the `if`s whose condition is not known go to
// `undecided`. An inline helper called in the span adds its body's work, `depth` helpers deep.
std::optional<KernelWork> spanWork(const dsl::ProgramModel& model, WorkSite site, std::string& why, const Env& env,
                                   StmtSpan span, const std::vector<StmtSpan>& left_out, std::set<int>* undecided,
                                   int depth = 0) {
  const Function* fn = model.function({site.file_index, site.function_index});
  const dsl::FileModel& file = model.files[static_cast<std::size_t>(site.file_index)];
  const dsl::IncoreRegion& region = fn->regions[static_cast<std::size_t>(site.region)];
  // Loops counted: those inside the region (an spmd for-form's own loop dispatches, it is not counted).
  const int first = region.stmt >= 0 ? region.stmt : 0;
  const int stop = region.stmt;
  auto counted = [&](int stmt) {
    return span.holds(stmt) &&
           std::none_of(left_out.begin(), left_out.end(), [&](const StmtSpan& l) { return l.holds(stmt); });
  };
  KernelWork w;
  std::int64_t* moved = nullptr;  // the pipe `add` charges
  // How often a statement runs depends on the loops and branches around it: one count per parent.
  std::map<int, std::int64_t> runs;
  auto trips = [&](int stmt) -> std::optional<std::int64_t> {
    const int parent = fn->stmts[static_cast<std::size_t>(stmt)].parent;
    if (auto it = runs.find(parent); it != runs.end()) return it->second;
    std::optional<std::int64_t> n = tripsAround(file, *fn, stmt, first, stop, why, env, undecided);
    if (n) runs[parent] = *n;
    return n;
  };
  auto add = [&](int stmt, std::optional<std::int64_t> bytes, const std::string& what) {
    if (!bytes) {
      why = "size of " + what + " at " + where(file, *fn, stmt);
      return false;
    }
    std::optional<std::int64_t> n = trips(stmt);
    if (!n) return false;
    *moved += *bytes * *n;
    w.instructions += *n;
    w.iterations = std::max(w.iterations, *n);
    return true;
  };
  auto load = [&](int stmt, std::optional<std::int64_t> bytes, const std::string& what) {
    moved = &w.mte2_bytes;
    return add(stmt, bytes, what);
  };
  auto store = [&](int stmt, std::optional<std::int64_t> bytes, const std::string& what) {
    moved = &w.mte3_bytes;
    return add(stmt, bytes, what);
  };
  for (int c : fn->calls) {
    const Expr& call = fn->exprs[static_cast<std::size_t>(c)];
    if (!counted(call.stmt)) continue;
    if (call.pl_name.empty()) {
      // An inline helper called here: its body is spliced into the kernel, so is its work.
      const Function* callee = call.callee_file >= 0 ? model.function({call.callee_file, call.callee_function}) : nullptr;
      if (!callee || !callee->isInline() || callee->regions.empty() ||
          callee->regions[0].kind != dsl::RegionKind::IncoreFunction || depth >= kMaxInlineDepth)
        continue;
      const Env callee_env = bindParams(*fn, call, *callee, env);
      const dsl::IncoreRegion& body = callee->regions[0];
      std::optional<KernelWork> inner =
          spanWork(model, {call.callee_file, call.callee_function, 0}, why, callee_env,
                   StmtSpan{body.first, body.last}, {}, nullptr, depth + 1);
      if (!inner) return std::nullopt;
      const std::optional<std::int64_t> n = trips(call.stmt);
      if (!n) return std::nullopt;
      w += repeated(*inner, *n);
      continue;
    }
    const std::string_view op = call.opName();
    const Value* result = call.value >= 0 ? &fn->values[static_cast<std::size_t>(call.value)] : nullptr;
    bool ok = true;
    if (op == "load" && result && !call.args.empty()) {
      ok = load(call.stmt, movedBytes(result->type, fn->valueOf(call.args[0])), "the loaded tile");
    } else if (op == "store" && !call.args.empty()) {
      const Value* tile = fn->valueOf(call.args[0]);
      const int out = call.args.size() >= 3 ? call.args[2] : fn->arg(call, 99, "output_tensor");
      ok = tile ? store(call.stmt, movedBytes(tile->type, fn->valueOf(out)), "the stored tile") : true;
    } else if (op == "assemble" && call.args.size() >= 2 && fn->valueOf(call.args[0]) &&
               !fn->valueOf(call.args[0])->on_chip) {
      // Assembling into a GM tensor stores the assembled tile at its offset.
      const Value* part = fn->valueOf(call.args[1]);
      ok = part ? store(call.stmt, movedBytes(part->type, fn->valueOf(call.args[0])), "the assembled tile") : true;
    } else if (result && result->on_chip && result->type.kind == dsl::ValueKind::Tensor && !createsBuffer(op) &&
               !isViewOp(op)) {
      // Tensor-level compute on chip: each GM tensor operand is loaded first.
      for (int a : call.args) {
        const Value* v = fn->valueOf(a);
        if (!v || v->on_chip || v->type.kind != dsl::ValueKind::Tensor) continue;
        if (!(ok = load(call.stmt, v->type.bytes(), "the implicitly loaded tensor"))) break;
      }
    } else if (op == "gather_row" && call.args.size() >= 5) {
      // pl.gather_row(buf, src, [r, c], [row, col], [1, D]): a DMA of the named shape from GM.
      const Value* src = fn->valueOf(call.args[1]);
      ok = load(call.stmt, src ? shapeListBytes(*fn, call.args[4], *src, env) : std::nullopt, "the gathered row");
    } else if (result && result->on_chip && result->type.kind == dsl::ValueKind::Tensor && isViewOp(op)) {
      // A view of a GM tensor in incore code is the load of the viewed region.
      const Value* src = call.args.empty() ? nullptr : fn->valueOf(call.args[0]);
      if (src && !src->on_chip) {
        std::optional<std::int64_t> bytes = result->type.bytes();
        // pl.slice(x, [rows, cols], [r0, c0]): the shape it names, in x's element type.
        if (!bytes && op == "slice" && call.args.size() >= 2) bytes = shapeListBytes(*fn, call.args[1], *src, env);
        ok = load(call.stmt, bytes, "the viewed region");
      }
    }
    if (!ok) {
      // A size unknown for want of a bare `pl.Tensor` parameter's dtype: name the parameter.
      for (int a : call.args) {
        const Value* v = fn->valueOf(a);
        // x[0:64, 0:256] of a parameter: the parameter.
        if (const Expr& ax = fn->exprs[static_cast<std::size_t>(a)]; ax.kind == dsl::ExprKind::Subscript && !ax.children.empty())
          if (const Value* base = fn->valueOf(ax.children[0]); base && base->param >= 0) v = base;
        if (v && v->param >= 0 && static_cast<std::size_t>(v->param) < fn->params.size() &&
            v->type.dtype == dsl::DType::Unknown && why.rfind("size of", 0) == 0) {
          why = untypedParameterWhy(file, *fn, fn->params[static_cast<std::size_t>(v->param)].name, call.stmt);
          break;
        }
      }
      return std::nullopt;
    }
    // Compute: a matmul on the cube, a move on MTE1 / FIXP, any other tile op (not a declaration) on the vector unit.
    if (!result || op == "load" || op == "store" || op == "assemble" || op == "gather_row" || isDeclaration(op)) continue;
    const std::optional<std::int64_t> n = trips(call.stmt);
    if (!n) return std::nullopt;
    const std::int64_t out_bytes = result->type.bytes().value_or(0);
    if (op == "move") {
      // A copy between on-chip buffers: out of the accumulator through the fix-pipe, any other (L1 into
      // L0A / L0B, Vec and Mat on a5) through MTE1; no vector work.
      const Value* src = call.args.empty() ? nullptr : fn->valueOf(call.args[0]);
      (src && src->type.space == dsl::MemSpace::Acc ? w.fixp_bytes : w.mte1_bytes) += out_bytes * *n;
    } else if (isMatmul(op)) {
      const std::int64_t m = dimOr(result->type, result->type.shape.dims.size() >= 2 ? result->type.shape.dims.size() - 2 : 0, 1);
      const std::int64_t ncols = dimOr(result->type, result->type.shape.dims.empty() ? 0 : result->type.shape.dims.size() - 1, 1);
      const std::int64_t k = contraction(*fn, call, op);
      const std::size_t left = leftOperand(op);
      const Value* a = call.args.size() <= left ? nullptr : fn->valueOf(call.args[left]);
      const Value* b = call.args.size() <= left + 1 ? nullptr : fn->valueOf(call.args[left + 1]);
      std::int64_t batch = 1;
      if (result->type.shape.rank_known && result->type.shape.dims.size() > 2)
        for (std::size_t d = 0; d + 2 < result->type.shape.dims.size(); ++d) batch *= dimOr(result->type, d, 1);
      const std::int64_t macs = batch * m * ncols * k * *n;
      const int bits = a ? dsl::dtypeBits(a->type.dtype) : 16;
      (bits >= 32 ? w.cube_macs_b32 : bits <= 8 && bits > 0 ? w.cube_macs_b8 : w.cube_macs_b16) += macs;
      // Operands not already in L0 (a pl.move put them there, counted at the move) go L1 -> L0 on MTE1.
      auto toL0 = [](const Value* v) {
        return v && v->type.space != dsl::MemSpace::Left && v->type.space != dsl::MemSpace::Right
                   ? v->type.bytes().value_or(0)
                   : std::int64_t{0};
      };
      w.mte1_bytes += (toL0(a) + toL0(b)) * *n;
      // The result leaves L0C through the fix-pipe; an accumulating matmul's stays for the next one
      // (the chain's result leaves once, counted at its first matmul).
      if (left == 0) w.fixp_bytes += out_bytes * *n;
    } else if (scalarOp(*fn, call, op, *result)) {
      // One element read or written (pl.read / pl.write), or a cast or arithmetic of scalars: the scalar
      // unit's instruction, no vector pass (counted below).
    } else {
      // The vector unit walks the largest tile the op reads or writes, row by row.
      const dsl::TypeInfo* widest = &result->type;
      int tiles = 0;
      for (int a : call.args)
        if (const Value* v = fn->valueOf(a); v && v->on_chip) {
          ++tiles;
          if (v->type.bytes().value_or(0) > widest->bytes().value_or(0)) widest = &v->type;
        }
      const std::int64_t row_bytes = widest->innermostBytes().value_or(0);
      const std::int64_t rows = row_bytes > 0 ? widest->bytes().value_or(0) / row_bytes : 0;
      w.vector_cycles += perf::vectorCycles(op, rows, row_bytes, tiles) * static_cast<double>(*n);
      w.vector_fixed_cycles += perf::vectorFixedCycles(op) * static_cast<double>(*n);
    }
    w.instructions += *n;
    w.iterations = std::max(w.iterations, *n);
  }
  // Subscript sugar on a GM tensor (`x[0:M, k0:k0 + K]` read, `y[0:M, d0:d0 + D] = acc` written) is a
  // load or store of the subscripted region.
  for (const dsl::SubscriptAccess& sa : fn->subscripts) {
    if (!counted(sa.stmt) || sa.base_value < 0 || sa.expr < 0) continue;
    const Value& base = fn->values[static_cast<std::size_t>(sa.base_value)];
    if (base.type.kind != dsl::ValueKind::Tensor || base.on_chip) continue;
    const Value* accessed = fn->valueOf(sa.expr);
    std::optional<std::int64_t> bytes = accessed ? movedBytes(accessed->type, &base) : std::nullopt;
    if (!bytes) bytes = subscriptRegionBytes(*fn, fn->exprs[static_cast<std::size_t>(sa.expr)], base, env);
    const char* what = sa.write ? "the written region" : "the read region";
    if (!(sa.write ? store(sa.stmt, bytes, what) : load(sa.stmt, bytes, what))) {
      if (base.param >= 0 && static_cast<std::size_t>(base.param) < fn->params.size() &&
          base.type.dtype == dsl::DType::Unknown && why.rfind("size of", 0) == 0)
        why = untypedParameterWhy(file, *fn, fn->params[static_cast<std::size_t>(base.param)].name, sa.stmt);
      return std::nullopt;
    }
  }
  return w;
}


}  // namespace

double serialMicros(const KernelWork& work) {
  // The pipes perf::taskTime times for one AIV task on a2a3 with the HBM to itself, one after another.
  const perf::PipeTimes t = perf::taskTime(work, perf::deviceSpec(Platform::A2A3), "AIV", 1);
  return t.mte2 + t.mte3 + t.mte1 + t.fixp + t.cube + t.vector + t.scalar;
}

std::optional<KernelWork> kernelWork(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                     std::string& why, const Env& env) {
  const Function* fn = model.function({kernel.file_index, kernel.function_index});
  if (!fn || kernel.region < 0 || static_cast<std::size_t>(kernel.region) >= fn->regions.size()) {
    why = "kernel " + kernel.kernel + ": no source region";
    return std::nullopt;
  }
  const dsl::IncoreRegion& region = fn->regions[static_cast<std::size_t>(kernel.region)];
  const StmtSpan whole{region.first, region.last};
  const WorkSite site{kernel.file_index, kernel.function_index, kernel.region};
  std::set<int> undecided;
  std::optional<KernelWork> all = spanWork(model, site, why, env, whole, {}, &undecided);
  if (!all) return std::nullopt;
  // An if / else whose condition is run-time data takes one branch each time: the larger one is
  // counted, not both. Inner ones first (a later statement is nested deeper or follows), so an elif
  // chain compares each branch as its own choices left it.
  std::vector<StmtSpan> left_out;
  for (auto it = undecided.rbegin(); it != undecided.rend(); ++it) {
    const int s = *it;
    const dsl::Stmt& st = fn->stmts[static_cast<std::size_t>(s)];
    int other = -1;
    for (int c = s + 1; c < st.subtree_end; c = fn->stmts[static_cast<std::size_t>(c)].subtree_end)
      if (fn->stmts[static_cast<std::size_t>(c)].kind == dsl::StmtKind::Else) other = c;
    if (other < 0) continue;  // an `if` alone: counted as taken
    const StmtSpan then_span{s + 1, other};
    const StmtSpan else_span{other + 1, fn->stmts[static_cast<std::size_t>(other)].subtree_end};
    std::string branch_why;
    const std::optional<KernelWork> a = spanWork(model, site, branch_why, env, then_span, left_out, nullptr);
    const std::optional<KernelWork> b = spanWork(model, site, branch_why, env, else_span, left_out, nullptr);
    if (!a || !b) continue;
    left_out.push_back(serialMicros(*a) >= serialMicros(*b) ? else_span : then_span);
  }
  if (left_out.empty()) return all;
  return spanWork(model, site, why, env, whole, left_out, nullptr);
}

}  // namespace portcheck::cost

#include "advice/task_graph.h"

#include <algorithm>
#include <map>

namespace portcheck::advice {

namespace {

void addUnique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

std::int64_t tileBytes(const std::vector<sram::KernelEstimate>& ks, const Task& t, const std::string& tensor,
                       bool store) {
  std::int64_t b = 0;
  for (int e : t.estimates)
    for (const auto& s : ks[static_cast<std::size_t>(e)].spaces)
      for (const auto& iv : s.tiles) {
        const std::string& local = store ? iv.stores_to : iv.loads_from;
        if (local.empty() || t.callerName(local) != tensor) continue;
        std::int64_t moved = store ? iv.stored_bytes : iv.loaded_bytes;  // in the GM tensor's element type
        b += moved > 0 ? moved : iv.bytes;
      }
  return b;
}

// The estimate of one space of a (fused or merged) kernel: its tiles packed as the allocator does.
sram::SpaceEstimate packedSpace(std::string_view space, std::vector<sram::Interval> tiles, Platform platform) {
  sram::SpaceEstimate e;
  e.space = std::string(space);
  e.capacity = capacityBytes(platform, space);
  sram::Packing pk = sram::pack(tiles);
  e.hwm = pk.hwm;
  e.buffers = pk.buffers;
  e.tiles = std::move(tiles);
  return e;
}

}  // namespace

std::vector<sram::SpaceEstimate> fusedEstimate(const std::vector<sram::KernelEstimate>& kernels, const Task& producer,
                                               const Task& consumer, const std::string& tensor, Platform platform) {
  std::vector<sram::SpaceEstimate> out;
  if (producer.estimates.size() != 1 || consumer.estimates.size() != 1) return out;
  const sram::KernelEstimate& p = kernels[static_cast<std::size_t>(producer.estimates[0])];
  const sram::KernelEstimate& c = kernels[static_cast<std::size_t>(consumer.estimates[0])];
  int shift = 0;
  for (const auto& s : p.spaces)
    for (const auto& iv : s.tiles) shift = std::max(shift, iv.last + 1);
  for (std::string_view sn : kMemorySpaces) {
    const sram::SpaceEstimate* ps = p.space(sn);
    const sram::SpaceEstimate* cs = c.space(sn);
    if (!ps && !cs) continue;
    std::vector<sram::Interval> ivs;
    int handoff_last = -1;
    if (cs)
      for (sram::Interval iv : cs->tiles) {
        iv.def += shift;
        iv.last += shift;
        if (!iv.loads_from.empty() && consumer.callerName(iv.loads_from) == tensor) {
          handoff_last = std::max(handoff_last, iv.last);  // read from the producer's tile instead
          continue;
        }
        ivs.push_back(iv);
      }
    if (ps)
      for (sram::Interval iv : ps->tiles) {
        if (handoff_last >= 0 && !iv.stores_to.empty() && producer.callerName(iv.stores_to) == tensor)
          iv.last = std::max(iv.last, handoff_last);
        ivs.push_back(iv);
      }
    out.push_back(packedSpace(sn, std::move(ivs), platform));
  }
  return out;
}

CoreUse coreUse(const std::vector<sram::KernelEstimate>& kernels, const std::vector<int>& estimates) {
  CoreUse use;
  for (int e : estimates)
    for (const auto& s : kernels[static_cast<std::size_t>(e)].spaces) {
      if (s.tiles.empty() && s.hwm == 0) continue;
      (s.space == "Vec" ? use.vector : use.cube) = true;
    }
  return use;
}

std::string coreOf(const std::vector<sram::KernelEstimate>& kernels, const Task& task) {
  const CoreUse use = coreUse(kernels, task.estimates);
  return use.cube == use.vector ? std::string() : use.cube ? "AIC" : "AIV";
}

std::vector<sram::SpaceEstimate> crossCoreEstimate(const std::vector<sram::KernelEstimate>& kernels,
                                                   const Task& producer, const Task& consumer,
                                                   const std::string& tensor, Platform platform, int slots,
                                                   std::string* ring_space) {
  std::vector<sram::SpaceEstimate> out;
  if (producer.estimates.size() != 1 || consumer.estimates.size() != 1) return out;
  const sram::KernelEstimate& p = kernels[static_cast<std::size_t>(producer.estimates[0])];
  const sram::KernelEstimate& c = kernels[static_cast<std::size_t>(consumer.estimates[0])];
  for (std::string_view sn : kMemorySpaces) {
    std::vector<sram::Interval> ivs;
    if (const sram::SpaceEstimate* ps = p.space(sn)) ivs = ps->tiles;
    if (const sram::SpaceEstimate* cs = c.space(sn))
      for (sram::Interval iv : cs->tiles) {
        if (!iv.loads_from.empty() && consumer.callerName(iv.loads_from) == tensor) {
          iv.bytes *= slots;
          if (ring_space) *ring_space = std::string(sn);
        }
        ivs.push_back(iv);
      }
    if (!ivs.empty()) out.push_back(packedSpace(sn, std::move(ivs), platform));
  }
  return out;
}

std::vector<sram::SpaceEstimate> mergedEstimate(const std::vector<sram::KernelEstimate>& kernels,
                                                const std::vector<const Task*>& tasks, Platform platform) {
  std::vector<sram::SpaceEstimate> out;
  for (const Task* t : tasks)
    if (t->estimates.size() != 1) return out;
  for (std::string_view sn : kMemorySpaces) {
    std::vector<sram::Interval> ivs;
    int shift = 0;
    for (const Task* t : tasks) {
      const sram::KernelEstimate& k = kernels[static_cast<std::size_t>(t->estimates[0])];
      int next = shift;
      for (const auto& s : k.spaces)
        for (const auto& iv : s.tiles) next = std::max(next, shift + iv.last + 1);
      if (const sram::SpaceEstimate* s = k.space(sn))
        for (sram::Interval iv : s->tiles) {
          iv.def += shift;
          iv.last += shift;
          ivs.push_back(iv);
        }
      shift = next;
    }
    if (ivs.empty()) continue;
    out.push_back(packedSpace(sn, std::move(ivs), platform));
  }
  return out;
}

const sram::SpaceEstimate* dominantSpace(const std::vector<sram::SpaceEstimate>& spaces) {
  const sram::SpaceEstimate* d = nullptr;
  for (const auto& s : spaces)
    if (s.capacity > 0 && (!d || s.hwm * d->capacity > d->hwm * s.capacity)) d = &s;
  return d;
}

std::vector<TaskGraph> buildTaskGraphs(const dsl::ProgramModel& model,
                                       const std::vector<sram::KernelEstimate>& kernels) {
  std::vector<TaskGraph> graphs;
  for (std::size_t fi = 0; fi < model.files.size(); ++fi) {
    const dsl::FileModel& file = model.files[fi];
    for (std::size_t fx = 0; fx < file.functions.size(); ++fx) {
      const dsl::Function& fn = file.functions[fx];
      if (!fn.isDsl() || fn.isIncoreFunction() || fn.isInline()) continue;
      TaskGraph g;
      g.caller = fn.name;
      g.file_index = static_cast<int>(fi);
      g.function_index = static_cast<int>(fx);
      // Dispatch points in program order: (stmt, kind) where kind 0 = region, 1 = call expr.
      std::vector<std::pair<int, int>> points;  // (stmt, region index or -(call expr)-1)
      for (std::size_t r = 0; r < fn.regions.size(); ++r)
        if (fn.regions[r].stmt >= 0) points.push_back({fn.regions[r].stmt, static_cast<int>(r)});
      for (int c : fn.calls) {
        const dsl::Expr& call = fn.exprs[static_cast<std::size_t>(c)];
        // A call outside any statement (a parameter annotation or default of half-written code) dispatches nothing.
        if (call.callee_file < 0 || call.callee_function < 0 || call.stmt < 0) continue;
        const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(call.stmt)];
        if (st.incore) continue;
        const dsl::Function* callee = model.function({call.callee_file, call.callee_function});
        if (!callee || !callee->isIncoreFunction()) continue;
        points.push_back({call.stmt, -c - 1});
      }
      std::stable_sort(points.begin(), points.end());
      for (const auto& [stmt, what] : points) {
        Task t;
        std::map<std::string, std::string>& to_caller = t.to_caller;
        const dsl::Stmt& st = fn.stmts[static_cast<std::size_t>(stmt)];
        t.stmt = stmt;
        t.enclosing_loop = st.enclosing_loop;
        t.file = file.path;
        t.line = st.loc.line;
        if (what >= 0) {
          for (std::size_t k = 0; k < kernels.size(); ++k)
            if (kernels[k].file_index == static_cast<int>(fi) && kernels[k].function_index == static_cast<int>(fx) &&
                kernels[k].region == what)
              t.estimates.push_back(static_cast<int>(k));
          t.kernel = fn.regions[static_cast<std::size_t>(what)].kernel_name;
        } else {
          const dsl::Expr& call = fn.exprs[static_cast<std::size_t>(-what - 1)];
          const dsl::Function* callee = model.function({call.callee_file, call.callee_function});
          t.kernel = callee->name;
          for (std::size_t k = 0; k < kernels.size(); ++k)
            if (kernels[k].file_index == call.callee_file && kernels[k].function_index == call.callee_function)
              t.estimates.push_back(static_cast<int>(k));
          std::size_t pi = 0;
          for (const dsl::Param& p : callee->params) {
            if (p.is_self) continue;
            if (pi < call.args.size() && call.args[pi] >= 0) {  // -1: an argument that did not parse
              const dsl::Value* v = fn.valueOf(call.args[pi]);
              if (v && !v->name.empty()) to_caller[p.name] = v->name;
              else to_caller[p.name] = std::string(file.text(fn.exprs[static_cast<std::size_t>(call.args[pi])]));
            }
            ++pi;
          }
        }
        if (t.estimates.empty()) continue;
        for (int e : t.estimates)
          for (const auto& s : kernels[static_cast<std::size_t>(e)].spaces)
            for (const auto& iv : s.tiles) {
              auto name = [&](const std::string& local) {
                auto it = to_caller.find(local);
                return it != to_caller.end() ? it->second : local;
              };
              if (!iv.loads_from.empty()) addUnique(t.reads, name(iv.loads_from));
              if (!iv.stores_to.empty()) addUnique(t.writes, name(iv.stores_to));
            }
        g.tasks.push_back(std::move(t));
      }
      for (std::size_t b = 0; b < g.tasks.size(); ++b)
        for (const std::string& tensor : g.tasks[b].reads)
          for (std::size_t a = b; a-- > 0;) {
            const auto& w = g.tasks[a].writes;
            if (std::find(w.begin(), w.end(), tensor) == w.end()) continue;
            Edge e;
            e.from = static_cast<int>(a);
            e.to = static_cast<int>(b);
            e.tensor = tensor;
            e.bytes = tileBytes(kernels, g.tasks[a], tensor, true) + tileBytes(kernels, g.tasks[b], tensor, false);
            g.edges.push_back(std::move(e));
            break;  // the latest writer before the reader
          }
      if (!g.tasks.empty()) graphs.push_back(std::move(g));
    }
  }
  return graphs;
}

}  // namespace portcheck::advice

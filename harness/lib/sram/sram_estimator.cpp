// The estimator's entry points: every incore kernel of a program estimated region by region (the
// footprints of inline functions computed once each, further instances of a kernel copied), and the
// estimates turned into SRAM rows and merged with the compiler's.
#include "sram/sram_estimator.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include "sram/sram_estimator_internal.h"

namespace portcheck::sram {

using detail::InlineFootprint;
using detail::InlineFootprints;
using detail::FunctionPoints;
using detail::RegionEstimator;
using dsl::Function;
using dsl::Value;
using dsl::ValueKind;

const SpaceEstimate* KernelEstimate::space(std::string_view s) const {
  for (const SpaceEstimate& e : spaces)
    if (e.space == s) return &e;
  return nullptr;
}

std::vector<KernelEstimate> firstInstances(std::vector<KernelEstimate> kernels) {
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(), [](const KernelEstimate& k) { return k.repeated; }),
                kernels.end());
  return kernels;
}

std::vector<KernelEstimate> estimateProgram(const dsl::ProgramModel& model, Platform platform) {
  std::unordered_map<const Function*, FunctionPoints> points;  // per function, shared by its regions
  auto pointsOf = [&](const Function& f) -> const FunctionPoints& {
    auto it = points.find(&f);
    if (it == points.end()) it = points.emplace(&f, detail::functionPoints(f)).first;
    return it->second;
  };
  // Footprints of inline functions spliced into kernels, computed once each (a cycle counts as none).
  std::map<std::pair<int, int>, std::optional<InlineFootprint>> footprints;
  InlineFootprints inlined;
  inlined = [&](int file, int function) -> const InlineFootprint* {
    const Function* f = model.function({file, function});
    if (!f || !f->isInline() || f->regions.empty() || f->regions[0].kind != dsl::RegionKind::IncoreFunction)
      return nullptr;
    auto key = std::make_pair(file, function);
    auto it = footprints.find(key);
    if (it != footprints.end()) return it->second ? &*it->second : nullptr;
    footprints[key] = std::nullopt;  // in progress
    InlineFootprint fp;
    RegionEstimator est(model.files[static_cast<std::size_t>(file)], *f, pointsOf(*f), f->regions[0], platform,
                        inlined);
    for (const KernelEstimate& k : est.run()) {
      if (k.core == "AIC" || k.split) fp.cube = fp.cube || k.core == "AIC";
      for (const SpaceEstimate& sp : k.spaces)
        fp.spaces.push_back({dsl::memSpaceFromName(sp.space), sp.hwm - sp.reserved});
    }
    footprints[key] = std::move(fp);
    return &*footprints[key];
  };
  std::vector<KernelEstimate> out;
  for (std::size_t fi = 0; fi < model.files.size(); ++fi) {
    const dsl::FileModel& file = model.files[fi];
    for (std::size_t fn = 0; fn < file.functions.size(); ++fn) {
      const Function& f = file.functions[fn];
      if (f.untaken) continue;  // a definition in the branch Python does not take: never compiled
      // A @pl.jit / opaque function with tile code but no pl.at scope is compiled as one kernel
      // named after the function (the verifier reports it under that name).
      if (f.regions.empty() && (f.kind == dsl::FunctionKind::JitEntry || f.kind == dsl::FunctionKind::Opaque) &&
          std::any_of(f.values.begin(), f.values.end(), [](const Value& v) {
            return v.on_chip && v.type.kind == ValueKind::Tile && v.def_stmt >= 0;
          })) {
        dsl::IncoreRegion whole;
        whole.kind = dsl::RegionKind::IncoreFunction;
        whole.first = 0;
        whole.last = static_cast<int>(f.stmts.size());
        whole.kernel_name = f.name;
        RegionEstimator est(file, f, pointsOf(f), whole, platform, inlined);
        for (KernelEstimate& k : est.run()) {
          k.file_index = static_cast<int>(fi);
          k.function_index = static_cast<int>(fn);
          out.push_back(std::move(k));
        }
        continue;
      }
      for (std::size_t r = 0; r < f.regions.size(); ++r) {
        const dsl::IncoreRegion& region = f.regions[r];
        if (region.kernel_name.empty()) continue;
        RegionEstimator est(file, f, pointsOf(f), region, platform, inlined);
        std::vector<KernelEstimate> first = est.run();
        for (KernelEstimate& k : first) {
          k.file_index = static_cast<int>(fi);
          k.function_index = static_cast<int>(fn);
          k.region = static_cast<int>(r);
          out.push_back(k);
        }
        // The further splices of an inline function's region: the same kernel under the name each
        // splice takes (proj_0, proj_1_aic, ...); a name two programs of the unit both give it, once.
        std::set<std::string> named{region.kernel_name};
        for (const std::string& name : region.instance_names) {
          if (!named.insert(name).second) continue;
          for (const KernelEstimate& k : first) {
            KernelEstimate copy = k;
            copy.kernel = detail::instanceName(k.kernel, region.kernel_name, name);
            copy.repeated = true;
            out.push_back(std::move(copy));
          }
        }
      }
    }
  }
  return out;
}

std::vector<SramRow> toSramRows(const std::vector<KernelEstimate>& kernels, const std::string& project,
                                std::size_t max_tiles) {
  std::vector<SramRow> rows;
  for (const KernelEstimate& k : kernels)
    for (const SpaceEstimate& s : k.spaces) {
      SramRow row;
      row.project = project;
      row.function = k.kernel;
      row.core = k.core;
      row.space = s.space;
      row.estimate = s.hwm;
      row.capacity = s.capacity;
      row.tiles = static_cast<int>(s.tiles.size());
      for (const Interval& t : s.tiles) {
        if (row.largest.size() >= max_tiles) break;
        row.largest.push_back({t.name, t.bytes, k.file, t.line});
      }
      rows.push_back(std::move(row));
    }
  return rows;
}

namespace {

// "<base>_<k>" or "<base>_<k>_aic" / "_aiv" -> "<base>" / "<base>_aic": the kernel the compiler copied, or
// empty when the name carries no copy suffix.
std::string copiedKernel(const std::string& name) {
  std::string split;
  std::string stem = name;
  for (const char* suffix : {"_aic", "_aiv"})
    if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, suffix) == 0) {
      split = suffix;
      stem.resize(stem.size() - 4);
    }
  std::size_t digits = stem.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(stem[digits - 1]))) --digits;
  if (digits == stem.size() || digits < 2 || stem[digits - 1] != '_') return {};
  return stem.substr(0, digits - 1) + split;
}

}  // namespace

void fillCopyEstimates(std::vector<SramRow>& rows) {
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> estimated;  // (project, function, space)
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].estimate && rows[i].estimate_from.empty())
      estimated.emplace(std::make_tuple(rows[i].project, rows[i].function, rows[i].space), i);
  for (SramRow& r : rows) {
    if (r.estimate || !r.actual) continue;
    // foo_1_0 (a copy of a copy) falls back to foo_1, then to foo.
    for (std::string base = copiedKernel(r.function); !base.empty(); base = copiedKernel(base)) {
      auto it = estimated.find(std::make_tuple(r.project, base, r.space));
      if (it == estimated.end()) continue;
      const SramRow& source = rows[it->second];
      r.estimate = source.estimate;
      r.estimate_from = source.function;
      if (r.capacity == 0) r.capacity = source.capacity;
      break;
    }
  }
}

void mergeSramRows(std::vector<SramRow>& rows, const std::vector<SramRow>& estimates) {
  // The rows of each (project, function, space), in row order: a lint of a model tree merges thousands of
  // rows, and a search through all of them for each was quadratic. A row renamed below is filed under its
  // new name too; an index is used only while its row still carries the name it is filed under.
  std::unordered_map<std::string, std::vector<std::size_t>> index;
  auto key = [](std::string_view project, const SramRow& r) {
    std::string k(project);
    k += '\x1f';
    k += r.function;
    k += '\x1f';
    k += r.space;
    return k;
  };
  auto file = [&](std::size_t i) {
    std::vector<std::size_t>& at = index[key(rows[i].project, rows[i])];
    at.insert(std::upper_bound(at.begin(), at.end(), i), i);
  };
  for (std::size_t i = 0; i < rows.size(); ++i) file(i);
  // The first row of `project` describing e's function and space that `also` accepts, or rows.end().
  auto first = [&](std::string_view project, const SramRow& e, auto also) {
    auto found = index.find(key(project, e));
    if (found != index.end())
      for (std::size_t i : found->second) {
        const SramRow& r = rows[i];
        if (r.project == project && r.function == e.function && r.space == e.space && also(r))
          return rows.begin() + static_cast<std::ptrdiff_t>(i);
      }
    return rows.end();
  };
  for (const SramRow& e : estimates) {
    auto it = first(e.project, e, [](const SramRow&) { return true; });
    // A file compiling several programs names its rows <file>:<program>; the estimate row of that
    // kernel (<file>, not yet joined to a program) takes the program's name.
    if (it == rows.end() && e.project.find(':') != std::string::npos) {
      const std::string file_name = e.project.substr(0, e.project.find(':'));
      it = first(file_name, e, [](const SramRow& r) { return !r.actual; });
      if (it != rows.end()) {
        it->project = e.project;
        file(static_cast<std::size_t>(it - rows.begin()));
      }
    }
    if (it == rows.end()) {
      rows.push_back(e);
      file(rows.size() - 1);
      continue;
    }
    if (e.estimate) {
      it->estimate = e.estimate;
      it->estimate_from = e.estimate_from;
    }
    if (e.actual) {
      // The compiler's own figures win for what both describe.
      it->actual = e.actual;
      it->actual_source = e.actual_source;
      if (!e.core.empty()) it->core = e.core;
      if (!e.largest.empty()) it->largest = e.largest;
      if (e.capacity) it->capacity = e.capacity;
      it->tiles = e.tiles;
    }
    if (it->largest.empty()) it->largest = e.largest;
    if (it->capacity == 0) it->capacity = e.capacity;
    if (it->core.empty()) it->core = e.core;
  }
  fillCopyEstimates(rows);
}

}  // namespace portcheck::sram

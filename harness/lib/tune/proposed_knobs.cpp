#include "tune/proposed_knobs.h"

#include <algorithm>
#include <map>
#include <set>

#include "dsl/floor_divisions.h"
#include "dsl/reached_functions.h"

namespace portcheck::tune {

namespace {

constexpr std::int64_t kA2a3RowBytes = 512;  // the L2 cache line of a2a3 (PH001)

bool isOwn(const std::vector<std::string>& own, const std::string& path) {
  return std::find(own.begin(), own.end(), path) != own.end();
}

// Extents floor-divided by each constant (`EXTENT // NAME`), over every function of the program.
std::map<std::string, std::vector<std::int64_t>> dividedExtents(const std::vector<dsl::FloorDivision>& divisions) {
  std::map<std::string, std::vector<std::int64_t>> out;
  for (const dsl::FloorDivision& d : divisions) out[d.name].push_back(d.extent);
  return out;
}

// Constants floor-divided inside a function the port's own code reaches (dsl/reached_functions.h: a
// pypto-lib block's stage the orchestration calls, not the block's own test entry), defined outside the
// port's own files.
std::set<std::string> reachedLibraryDivisors(const dsl::ProgramModel& program, const std::vector<dsl::FloorDivision>& divisions,
                                             const std::vector<std::string>& own) {
  std::set<const dsl::Function*> functions;
  for (const auto& [file, function] :
       dsl::reachedFunctions(program, [&](const dsl::FileModel& f) { return isOwn(own, f.path); }))
    functions.insert(program.function({file, function}));
  std::set<std::string> out;
  for (const dsl::FloorDivision& d : divisions)
    if (!isOwn(own, d.file) && functions.count(d.function)) out.insert(d.name);
  return out;
}

// The element size of the loads whose innermost extent is the constant (0: none).
std::map<std::string, std::int64_t> innermostLoadElement(const dsl::ProgramModel& program) {
  std::map<std::string, std::int64_t> out;
  for (const dsl::FileModel& file : program.files)
    for (const dsl::Function& fn : file.functions)
      for (int c : fn.calls) {
        const dsl::Expr& call = fn.exprs[static_cast<std::size_t>(c)];
        std::string_view op = call.pl_name;
        if (op != "load" && op != "tile.load") continue;
        const int shapes = call.args.size() >= 3 ? call.args[2] : fn.arg(call, 99, "shapes");
        if (shapes < 0 || call.value < 0) continue;
        const dsl::Expr& list = fn.exprs[static_cast<std::size_t>(shapes)];
        if ((list.kind != dsl::ExprKind::List && list.kind != dsl::ExprKind::Tuple) || list.children.empty()) continue;
        const dsl::Expr& last = fn.exprs[static_cast<std::size_t>(list.children.back())];
        const dsl::TypeInfo& type = fn.values[static_cast<std::size_t>(call.value)].type;
        const std::optional<std::int64_t> row = type.innermostBytes();
        const std::int64_t extent = type.shape.dims.empty() ? 0 : type.shape.dims.back().value_or(0);
        if (last.kind == dsl::ExprKind::Name && row && extent > 0) out[last.name] = *row / extent;
      }
  return out;
}

}  // namespace

std::vector<Knob> proposedKnobs(const dsl::ProgramModel& program, const std::vector<std::string>& own_files,
                                Platform platform) {
  const std::vector<dsl::FloorDivision> divisions = dsl::floorDivisions(program);
  const auto divided = dividedExtents(divisions);
  const std::set<std::string> library = reachedLibraryDivisors(program, divisions, own_files);
  const auto element = innermostLoadElement(program);
  std::vector<Knob> knobs;
  for (const dsl::FileModel& file : program.files) {
    const bool own = isOwn(own_files, file.path);
    for (const dsl::Constant& c : file.constants) {
      if (!own && !library.count(c.name)) continue;
      auto d = divided.find(c.name);
      if (c.imported || !c.value.isInt() || c.value.i <= 0 || d == divided.end()) continue;
      if (std::any_of(knobs.begin(), knobs.end(), [&](const Knob& k) { return k.name == c.name; })) continue;
      Knob k{c.name, c.value.i, {}};
      auto e = element.find(c.name);
      for (std::int64_t p = 1; p <= c.value.i * 8; p *= 2) {
        if (p * 8 < c.value.i) continue;
        if (std::any_of(d->second.begin(), d->second.end(), [&](std::int64_t x) { return x % p != 0; })) continue;
        if (platform == Platform::A2A3 && e != element.end() && e->second > 0 && p * e->second < kA2a3RowBytes &&
            p != c.value.i)
          continue;
        k.candidates.push_back(p);
      }
      if (std::find(k.candidates.begin(), k.candidates.end(), k.current) == k.candidates.end())
        k.candidates.push_back(k.current);
      std::sort(k.candidates.begin(), k.candidates.end());
      if (k.candidates.size() > 1) knobs.push_back(std::move(k));
    }
  }
  return knobs;
}

}  // namespace portcheck::tune

#include "lint/kernel/mixed_vector_cube_check.h"

namespace portcheck {

using namespace kernel;

namespace {

Core coreOfCall(const KernelModel& m, const Call& c) {
  std::vector<Loc> locs;
  for (const Operand& o : c.args) locs.push_back(m.locOf(o));
  return coreOf(*c.instruction, locs);
}

// Both calls are compiled into the same core's binary (a2a3 builds vector and cube kernels separately).
bool sameBuild(const Reach& a, const Reach& b) {
  return (a.on_vec != Tri::False && b.on_vec != Tri::False) || (a.on_cube != Tri::False && b.on_cube != Tri::False);
}

}  // namespace

void MixedVectorCubeCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  std::vector<const Call*> vec, cube;
  for (const Call& c : m.calls) {
    if (!c.instruction) continue;
    Core k = coreOfCall(m, c);
    if (k == Core::Vector) vec.push_back(&c);
    if (k == Core::Cube) cube.push_back(&c);
  }
  for (const Call* c : cube) {
    for (const Call* v : vec) {
      if (!sameBuild(c->reach, v->reach)) continue;
      const Call* later = c->pos.byte > v->pos.byte ? c : v;
      const Call* other = later == c ? v : c;
      Diagnostic d = at(ctx, later->pos, std::string(later == c ? "cube" : "vector") + " work (" + later->name +
                                             ") and " + (later == c ? "vector" : "cube") + " work (" + other->name +
                                             " at line " + std::to_string(other->pos.line) +
                                             ") are compiled into the same kernel without a core guard");
      d.notes.push_back({ctx.file.path, other->pos.line, other->pos.column, other->name + " is here"});
      out.push_back(std::move(d));
      return;  // one finding per file: the fix is to split the kernel
    }
  }
}

}  // namespace portcheck

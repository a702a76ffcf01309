#include "dsl/kernel_arg_shapes.h"

namespace portcheck::dsl {

std::vector<KernelShapeMismatch> kernelShapeMismatches(const ProgramModel& program) {
  std::vector<KernelShapeMismatch> out;
  for (const FileModel& file : program.files) {
    if (!file.parsed) continue;
    for (const Function& fn : file.functions) {
      for (int c : fn.calls) {
        const Expr& call = fn.exprs[static_cast<std::size_t>(c)];
        const Function* kernel = program.function(program.callee(fn, call));
        if (!kernel || !kernel->isIncoreFunction()) continue;
        std::size_t position = 0;
        for (const Param& p : kernel->params) {
          if (p.is_self) continue;
          int a = fn.arg(call, position++, p.name);
          if (a < 0 || p.type.kind != ValueKind::Tensor || p.dynamic_shape) continue;
          const Value* v = fn.valueOf(a);
          if (!v || v->type.kind != ValueKind::Tensor) continue;
          const Shape& want = p.type.shape;
          const Shape& got = v->type.shape;
          if (!want.fullyStatic() || !got.fullyStatic() || want.dims.size() != got.dims.size()) continue;
          if (want.dims == got.dims) continue;
          out.push_back({&file, &fn, a, kernel, p.name, want.str(), got.str()});
        }
      }
    }
  }
  return out;
}

}  // namespace portcheck::dsl

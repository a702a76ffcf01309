#pragma once
// Kernel calls whose tensor argument has another static shape than the kernel's parameter
// annotation. PyPTO (e2d0f78) compiles the kernel for the annotated shape and accepts the call:
// the kernel then reads and writes only the annotated extent of the argument (DSL120; tune
// prunes such a configuration before compiling it).
#include <string>
#include <vector>

#include "dsl/dsl_model.h"

namespace portcheck::dsl {

struct KernelShapeMismatch {
  const FileModel* file = nullptr;
  const Function* caller = nullptr;
  int arg = -1;                 // the argument expression, in the caller
  const Function* kernel = nullptr;
  std::string param;
  std::string param_shape;      // "[64, 64]"
  std::string arg_shape;        // "[128, 64]"
};

// Every such call of the program: both shapes fully static and of the same rank.
std::vector<KernelShapeMismatch> kernelShapeMismatches(const ProgramModel& program);

}  // namespace portcheck::dsl

// The pypto.language name table: operations, namespaces, enums, and names that do not exist.
#include <gtest/gtest.h>

#include <algorithm>

#include "dsl/pl_names.h"

namespace portcheck::test {
namespace {

using dsl::PlNameKind;

TEST(PlNames, KnownDottedOperationNamesResolveWithTheirKind) {
  struct Case {
    const char* name;
    PlNameKind kind;
  };
  const Case known[] = {
      {"load", PlNameKind::TileOp},           {"store", PlNameKind::TileOp},
      {"move", PlNameKind::TileOp},           {"create_tile", PlNameKind::TileOp},
      {"add", PlNameKind::UnifiedOp},         {"matmul", PlNameKind::UnifiedOp},
      {"matmul_acc", PlNameKind::UnifiedOp},  {"row_max", PlNameKind::UnifiedOp},
      {"cast", PlNameKind::UnifiedOp},        {"create_tensor", PlNameKind::TensorOp},
      {"full", PlNameKind::TensorOp},         {"tile.load", PlNameKind::TileOp},
      {"tile.add", PlNameKind::TileOp},       {"tile.row_max", PlNameKind::TileOp},
      {"tensor.create", PlNameKind::TensorOp}, {"tensor.read", PlNameKind::TensorOp},
      {"tensor.dim", PlNameKind::TensorOp},   {"system.tpush_to_aiv", PlNameKind::SystemOp},
      {"tpop_from_aic", PlNameKind::SystemOp}, {"array.create", PlNameKind::ArrayOp},
      {"range", PlNameKind::Loop},            {"pipeline", PlNameKind::Loop},
      {"while_", PlNameKind::Loop},           {"spmd", PlNameKind::LoopOrScope},
      {"at", PlNameKind::Scope},              {"jit", PlNameKind::Decorator},
      {"jit.incore", PlNameKind::Decorator},  {"jit.inline", PlNameKind::Decorator},
      {"function", PlNameKind::Decorator},    {"program", PlNameKind::Decorator},
      {"Tensor", PlNameKind::Type},           {"Out", PlNameKind::Type},
      {"FP32", PlNameKind::DType},            {"BF16", PlNameKind::DType},
      {"MemorySpace.Vec", PlNameKind::Enum},  {"Mem.Left", PlNameKind::Enum},
      {"FunctionType.InCore", PlNameKind::Enum}, {"Level.CORE_GROUP", PlNameKind::Enum},
      {"split", PlNameKind::Helper},          {"cross_core_slot", PlNameKind::Helper},
      {"yield_", PlNameKind::Helper},         {"tile", PlNameKind::Namespace},
  };
  for (const Case& c : known) {
    const dsl::PlName* p = dsl::findPlName(c.name);
    ASSERT_NE(p, nullptr) << c.name;
    EXPECT_EQ(p->kind, c.kind) << c.name;
  }
  EXPECT_TRUE(dsl::isOperation(dsl::findPlName("tile.load")->kind));
  EXPECT_FALSE(dsl::isOperation(dsl::findPlName("range")->kind));
}

TEST(PlNames, UnknownNamesAreNotFound) {
  for (const char* name : {"nonexistent_op", "tile.nonexistent", "block.load", "tensor.load", "incore",
                           "jit.kernel", "Load", "tile.", "", "tile.load.x", "system.load"})
    EXPECT_EQ(dsl::findPlName(name), nullptr) << name;
}

TEST(PlNames, TableIsSortedAndUnique) {
  auto names = dsl::plNames();
  ASSERT_GT(names.size(), 400u);
  for (std::size_t i = 1; i < names.size(); ++i) EXPECT_LT(names[i - 1].name, names[i].name);
}

}  // namespace
}  // namespace portcheck::test

// The AUTO and ISA modules: registers every kernel check.
#include "lint/kernel/tassign_on_tile_check.h"
#include "lint/kernel/manual_pipe_flag_check.h"
#include "lint/kernel/noop_in_auto_check.h"
#include "lint/kernel/cce_intrinsic_check.h"
#include "lint/kernel/cce_control_intrinsic_check.h"
#include "lint/kernel/tile_data_pointer_check.h"
#include "lint/kernel/tile_rebound_check.h"
#include "lint/kernel/tload_into_output_tile_check.h"
#include "lint/kernel/tile_copy_check.h"
#include "lint/kernel/push_pop_in_auto_check.h"
#include "lint/kernel/member_default_init_check.h"
#include "lint/kernel/tile_function_signature_check.h"
#include "lint/kernel/row_expand_source_type_check.h"
#include "lint/kernel/mixed_vector_cube_check.h"
#include "lint/kernel/acc_to_vec_move_check.h"
#include "lint/kernel/iteration_guard_check.h"
#include "lint/kernel/loop_invariant_branch_check.h"
#include "lint/kernel/tile_array_runtime_index_check.h"
#include "lint/kernel/tile_data_copy_check.h"
#include "lint/kernel/impl_runtime_branch_check.h"
#include "lint/kernel/tile_function_sync_check.h"
#include "lint/kernel/subview_layout_check.h"
#include "lint/kernel/conv_tile_dynamic_shape_check.h"
#include "lint/kernel/in_place_move_check.h"
#include "lint/kernel/tile_location_check.h"
#include "lint/kernel/operand_count_check.h"
#include "lint/kernel/dtype_support_check.h"
#include "lint/kernel/tile_alignment_check.h"
#include "lint/kernel/tile_capacity_check.h"
#include "lint/kernel/live_tiles_capacity_check.h"
#include "lint/kernel/gm_access_check.h"
#include "lint/kernel/kernel_check.h"

namespace portcheck {

const std::vector<std::unique_ptr<KernelCheck>>& kernelChecks() {
  static const auto kChecks = [] {
    std::vector<std::unique_ptr<KernelCheck>> v;
    v.push_back(std::make_unique<TassignOnTileCheck>());
    v.push_back(std::make_unique<ManualPipeFlagCheck>());
    v.push_back(std::make_unique<NoopInAutoCheck>());
    v.push_back(std::make_unique<CceIntrinsicCheck>());
    v.push_back(std::make_unique<CceControlIntrinsicCheck>());
    v.push_back(std::make_unique<TileDataPointerCheck>());
    v.push_back(std::make_unique<TileReboundCheck>());
    v.push_back(std::make_unique<TloadIntoOutputTileCheck>());
    v.push_back(std::make_unique<TileCopyCheck>());
    v.push_back(std::make_unique<PushPopInAutoCheck>());
    v.push_back(std::make_unique<MemberDefaultInitCheck>());
    v.push_back(std::make_unique<TileFunctionSignatureCheck>());
    v.push_back(std::make_unique<RowExpandSourceTypeCheck>());
    v.push_back(std::make_unique<MixedVectorCubeCheck>());
    v.push_back(std::make_unique<AccToVecMoveCheck>());
    v.push_back(std::make_unique<IterationGuardCheck>());
    v.push_back(std::make_unique<LoopInvariantBranchCheck>());
    v.push_back(std::make_unique<TileArrayRuntimeIndexCheck>());
    v.push_back(std::make_unique<TileDataCopyCheck>());
    v.push_back(std::make_unique<ImplRuntimeBranchCheck>());
    v.push_back(std::make_unique<TileFunctionSyncCheck>());
    v.push_back(std::make_unique<SubviewLayoutCheck>());
    v.push_back(std::make_unique<ConvTileDynamicShapeCheck>());
    v.push_back(std::make_unique<InPlaceMoveCheck>());
    v.push_back(std::make_unique<TileLocationCheck>());
    v.push_back(std::make_unique<OperandCountCheck>());
    v.push_back(std::make_unique<DtypeSupportCheck>());
    v.push_back(std::make_unique<TileAlignmentCheck>());
    v.push_back(std::make_unique<TileCapacityCheck>());
    v.push_back(std::make_unique<LiveTilesCapacityCheck>());
    v.push_back(std::make_unique<GmAccessCheck>());
    return v;
  }();
  return kChecks;
}

}  // namespace portcheck

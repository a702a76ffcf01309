// The DSL module: registers every check that runs on the DSL model (DSL001, the syntax
// diagnostic, and DSL002/DSL003, the suppression diagnostics, are reported by the linter itself).
#include "lint/dsl/create_tensor_in_incore_check.h"
#include "lint/dsl/dsl_check.h"
#include "lint/dsl/entry_output_not_out_check.h"
#include "lint/dsl/host_tensor_computation_check.h"
#include "lint/dsl/index_sign_test_check.h"
#include "lint/dsl/implicit_tensor_access_check.h"
#include "lint/dsl/kernel_argument_expression_check.h"
#include "lint/dsl/kernel_argument_shape_check.h"
#include "lint/dsl/matmul_acc_without_matmul_check.h"
#include "lint/dsl/matmul_k_loop_check.h"
#include "lint/dsl/missing_annotation_check.h"
#include "lint/dsl/strided_view_to_kernel_check.h"
#include "lint/dsl/mixed_kernel_styles_check.h"
#include "lint/dsl/orchestration_name_t_check.h"
#include "lint/dsl/parallel_loop_in_incore_check.h"
#include "lint/dsl/pipeline_outside_incore_check.h"
#include "lint/dsl/pl_alias_check.h"
#include "lint/dsl/python_range_loop_check.h"
#include "lint/dsl/removed_api_check.h"
#include "lint/dsl/scalar_inout_check.h"
#include "lint/dsl/small_innermost_load_check.h"
#include "lint/dsl/spmd_scope_block_index_check.h"
#include "lint/dsl/tile_as_tensor_check.h"
#include "lint/dsl/tile_op_outside_incore_check.h"
#include "lint/dsl/tile_parameter_check.h"
#include "lint/dsl/tile_row_alignment_check.h"
#include "lint/dsl/tunable_division_check.h"
#include "lint/dsl/unknown_pl_operation_check.h"
#include "lint/dsl/unknown_tunable_check.h"
#include "lint/dsl/unsupported_construct_check.h"
#include "lint/dsl/unwritten_output_check.h"
#include "lint/dsl/unwritten_output_param_check.h"

namespace portcheck {

const std::vector<std::unique_ptr<DslCheck>>& dslChecks() {
  static const auto kChecks = [] {
    std::vector<std::unique_ptr<DslCheck>> v;
    v.push_back(std::make_unique<TileOpOutsideIncoreCheck>());
    v.push_back(std::make_unique<ParallelLoopInIncoreCheck>());
    v.push_back(std::make_unique<PipelineOutsideIncoreCheck>());
    v.push_back(std::make_unique<CreateTensorInIncoreCheck>());
    v.push_back(std::make_unique<PythonRangeLoopCheck>());
    v.push_back(std::make_unique<UnsupportedConstructCheck>());
    v.push_back(std::make_unique<TileParameterCheck>());
    v.push_back(std::make_unique<ScalarInOutCheck>());
    v.push_back(std::make_unique<EntryOutputNotOutCheck>());
    v.push_back(std::make_unique<PlAliasCheck>());
    v.push_back(std::make_unique<TileRowAlignmentCheck>());
    v.push_back(std::make_unique<ImplicitTensorAccessCheck>());
    v.push_back(std::make_unique<MixedKernelStylesCheck>());
    v.push_back(std::make_unique<UnknownPlOperationCheck>());
    v.push_back(std::make_unique<MatmulKLoopCheck>());
    v.push_back(std::make_unique<MatmulAccWithoutMatmulCheck>());
    v.push_back(std::make_unique<SmallInnermostLoadCheck>());
    v.push_back(std::make_unique<MissingAnnotationCheck>());
    v.push_back(std::make_unique<StridedViewToKernelCheck>());
    v.push_back(std::make_unique<KernelArgumentShapeCheck>());
    v.push_back(std::make_unique<KernelArgumentExpressionCheck>());
    v.push_back(std::make_unique<UnknownTunableCheck>());
    v.push_back(std::make_unique<TunableDivisionCheck>());
    v.push_back(std::make_unique<UnwrittenOutputParamCheck>());
    v.push_back(std::make_unique<HostTensorComputationCheck>());
    v.push_back(std::make_unique<RemovedApiCheck>());
    v.push_back(std::make_unique<TileAsTensorCheck>());
    v.push_back(std::make_unique<UnwrittenOutputCheck>());
    v.push_back(std::make_unique<OrchestrationNameTCheck>());
    v.push_back(std::make_unique<IndexSignTestCheck>());
    v.push_back(std::make_unique<SpmdScopeBlockIndexCheck>());
    return v;
  }();
  return kChecks;
}

}  // namespace portcheck

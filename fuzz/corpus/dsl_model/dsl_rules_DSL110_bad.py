import pypto.language as pto  # expect: DSL110


@pto.jit
def copy(
    x: pto.Tensor[[64, 128], pto.FP32],
    y: pto.Out[pto.Tensor[[64, 128], pto.FP32]],
):
    with pto.at(level=pto.Level.CORE_GROUP):
        t = pto.load(x, [0, 0], [64, 128])
        pto.store(t, [0, 0], y)
    return y

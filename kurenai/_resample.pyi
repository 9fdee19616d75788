import numpy as np
import numpy.typing as npt

def resampled_sums(
    columns: npt.NDArray[np.float64],
    indices: npt.NDArray[np.int64],
    out: npt.NDArray[np.float64],
    start: int,
) -> None: ...

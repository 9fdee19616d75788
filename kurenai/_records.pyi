import numpy as np
import numpy.typing as npt

def simple_columns(block: bytes, fields: tuple[str, ...]) -> list[list[str]] | None: ...
def records_text(
    values: npt.NDArray[np.float64], ids: list[str], pieces: list[str], fixed6: bool = False
) -> str | None: ...

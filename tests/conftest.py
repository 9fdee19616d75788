"""Shared fixtures: the suite runs once per implementation of the hot path.

Two runs of the suite (see ``.ci/run``): with the compiled extension, where
every path runs, and pure Python (``KURENAI_IMPLEMENTATION=python`` on a tree
without the extension), where the tests marked ``compiled_only`` are skipped
and the ``fused``/``compiled`` parameters with them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import settings

from kurenai import _backend, _lcs_py, _pairs_py, _variants_py
from kurenai._core.python_plan import PythonPlan
from kurenai.tokenizers import register_tokenizer

try:
    from kurenai import _fused, _lcs, _pairs, _variants
except ImportError:  # the pure-Python run; anywhere else the tests that need them fail
    _lcs = _fused = _pairs = _variants = None  # type: ignore[assignment]

# The properties check results, never speed (benchmarks/ measures that): no
# per-example deadline, which a loaded machine, or the suite's own workers
# sharing its cores, would trip on a slow but correct example.
settings.register_profile("kurenai", deadline=None)
settings.load_profile("kurenai")

# The pure-Python run: compiled internals are not there to test.
PURE_RUN = _backend.IMPLEMENTATION == "python" and _lcs is None

# name -> (kernels, fused text path)
BACKENDS: dict[str, tuple[ModuleType | None, ModuleType | None]] = {
    "fused": (_lcs, _fused),
    "compiled": (_lcs, None),
    "python": (_lcs_py, None),
}
# name -> the ROUGE-W/S/SU kernels a Python plan gets on that path
VARIANTS = {"fused": _variants, "compiled": _variants, "python": _variants_py}
# name -> the all-pairs kernels (score_matrix) on that path
PAIRS = {"fused": _pairs, "compiled": _pairs, "python": _pairs_py}
COMPILED_ONLY = pytest.mark.compiled_only


# Whole modules that start processes, a JVM, Perl, a browser or a build: the
# everyday loop (`pytest -m "not slow"`) leaves them to CI, which runs all.
# (Or `@pytest.mark.slow` in the module; `index`, for a test that installs from
# the package index, implies slow.  tests/test_markers.py finds unmarked ones.)
SLOW_MODULES = {
    "tests/shipping/test_build.py": "objdump and qemu on the built extension",
    "tests/shipping/test_build_install.py": "builds wheels and sdists into fresh environments",
    "tests/shipping/test_benchmarks.py": "runs each benchmark script in a process",
    "tests/spark/test_spark.py": "starts a Spark JVM",
    "tests/core/test_perl.py": "runs ROUGE-1.5.5.pl",
    "tests/robustness/test_robustness_fuzz.py": "a hypothesis run in a fresh process",
    "tests/cli/test_cli_integration.py": "the console script in processes",
    "tests/cli/test_cli_reliability.py": "signals and kills of CLI processes",
    "tests/cli/test_cli_fuzz_signals.py": "signals at random moments of CLI processes",
    "tests/core/test_processes.py": "score_batch's worker processes, each loading an analyser",
    "tests/test_backend.py": "imports kurenai in fresh interpreters, one per implementation choice",
    "tests/metrics/test_metrics_examples.py": "runs each example script in a process",
    "tests/shipping/test_quality.py": "ruff, mypy and cython-lint in processes",
}
# Single tests that do (module::function, without parameters).
SLOW_TESTS = {
    "tests/robustness/test_robustness.py::test_pickled_scorer_scores_the_same_in_a_spawned_process",
    "tests/robustness/test_robustness.py::test_threads_sharing_a_fresh_scorer_get_the_serial_scores",
    "tests/robustness/test_robustness_cli.py::test_a_closed_stdout_in_a_process_is_one_line_and_exit_1",
    "tests/robustness/test_robustness_cli.py::test_a_closed_stderr_keeps_messages_out_of_stdout",
    "tests/robustness/test_robustness_long_input.py::"
    "test_mecab_scores_a_long_unbroken_text_in_a_process",
    "tests/compat/test_compat_api.py::test_importing_the_compat_modules_loads_no_optional_package",
    "tests/compat/test_compat_cli.py::test_python_dash_m_kurenai_compat",
    "tests/cli/test_cli_rouge_score_csv.py::test_rouge_score_command_line_writes_the_same_csv",
    "tests/compat/test_compat_patch.py::test_the_runner_patches_a_script_it_runs",
    "tests/compat/test_compat_patch.py::test_the_runner_runs_modules_and_says_how",
    "tests/core/test_batch.py::test_an_over_limit_pair_stops_early_in_bounded_memory",
    "tests/core/test_inputs.py::test_import_kurenai_loads_neither_pandas_nor_pyarrow",
    "tests/kernel_modules/test_fused.py::test_a_fresh_process_scans_with_the_table_the_plan_installed",
    "tests/kernel_modules/test_lcs_threads.py::test_header_alone_matches_a_naive_dp",
    "tests/kernel_modules/test_robustness_hash.py::test_each_process_draws_its_own_key",
    "tests/kernel_modules/test_variants_kernels.py::test_python_choice_selects_the_twin",
    "tests/tokenizing/test_tokenizers_morphological.py::test_importing_kurenai_loads_no_analyser",
    "tests/tokenizing/test_tokenizers_registry.py::"
    "test_importing_the_registry_imports_no_optional_tokenizer",
}
ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "compiled_only: tests the compiled extension; skipped in the pure-Python run"
    )
    config.addinivalue_line(
        "markers",
        "slow: packaging, spawned processes, Spark JVM, Perl, browser, fuzz; "
        '`-m "not slow"` leaves them out (CI runs them)',
    )
    if not config.pluginmanager.hasplugin("xdist"):
        # pytest_collection_modifyitems groups tests by module fixture; without
        # pytest-xdist (a packager's plain pytest) --strict-markers must know it.
        config.addinivalue_line("markers", "xdist_group(name): one worker under pytest -n")
    config.addinivalue_line(
        "markers",
        "index: installs reference packages from the package index (pip, up to 300 s; "
        'skips offline, fails under CI=true); also slow, `-m "not index"` leaves them out',
    )


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """``--dist loadgroup`` whenever ``-n`` is given without ``--dist``.

    Not in pyproject.toml's ``addopts``: there, a plain ``pytest`` where
    pytest-xdist is not installed (an unpacked sdist, as packagers run it)
    stops at "unrecognized arguments: --dist".  Runs before xdist's own hook,
    which would otherwise choose ``load``; ``-n 0`` stays serial.
    """
    if not config.pluginmanager.hasplugin("xdist"):
        return
    if config.option.dist == "no" and config.option.numprocesses:
        config.option.dist = "loadgroup"


def _is_slow(item: pytest.Item) -> bool:
    path = Path(str(item.path)).resolve()
    if ROOT not in path.parents:
        return False
    module = path.relative_to(ROOT).as_posix()
    function = getattr(item, "originalname", item.name)
    return module in SLOW_MODULES or f"{module}::{function}" in SLOW_TESTS


def _module_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses a costly module-scoped fixture (a Spark session, a
    built wheel, Perl's runs); not this file's ``kernels``/``backend``, which
    only choose a path and cost nothing to make again in another worker."""
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.values() if info is not None else ()
    return any(
        d.scope == "module" and d.func.__module__ != __name__ for found in defs for d in found
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _is_slow(item) or item.get_closest_marker("index") is not None:
            item.add_marker(pytest.mark.slow)
        # With -n (--dist loadgroup: pytest_cmdline_main), the tests sharing a
        # module's fixture run in one worker, which makes it once; every other
        # test goes to whichever worker is free (whole modules per worker left
        # one core idle at the end).
        if _module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    if not PURE_RUN:
        return
    skip = pytest.mark.skip(reason="pure-Python run: the compiled extension is not built")
    for item in items:
        if item.get_closest_marker("compiled_only") is not None:
            item.add_marker(skip)


def _use(name: str) -> Iterator[str]:
    kernels, fused = BACKENDS[name]
    if kernels is None:
        pytest.fail("the compiled extension is not built (build it, or run pure Python)")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_backend, "kernels", kernels)
        patch.setattr(_backend, "fused", fused)
        patch.setattr(_backend, "variants", VARIANTS[name])
        patch.setattr(_backend, "pairs", PAIRS[name])
        yield name


def _params(names: list[str]) -> list[Any]:
    return [pytest.param(n, marks=() if n == "python" else COMPILED_ONLY) for n in names]


@pytest.fixture(
    scope="module", params=_params(["compiled", "python"]), ids=lambda n: f"kernels={n}"
)
def kernels(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    """Each kernel module in turn (compiled ``_lcs``, pure ``_lcs_py``)."""
    for _ in _use(request.param):
        yield BACKENDS[request.param][0]  # type: ignore[misc]


@pytest.fixture(scope="module", params=_params(sorted(BACKENDS)), ids=lambda n: f"path={n}")
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each way RougeScorer can compute: fused compiled path, compiled kernels
    behind Python tokenization, pure Python."""
    yield from _use(request.param)


def on_compiled_plan(scorer: Any) -> bool:
    """Whether ``scorer`` runs the compiled twin of its plan."""
    return not isinstance(scorer.plan, PythonPlan)


@pytest.fixture
def registered_tokenizer() -> Iterator[Callable[[str, Callable[..., Any]], None]]:
    """``register(name, factory)``: a tokenizer name that exists for one test."""
    names: list[str] = []

    def register(name: str, factory: Callable[..., Any]) -> None:
        register_tokenizer(name, factory)
        names.append(name)

    yield register
    for name in names:
        register_tokenizer(name, None)

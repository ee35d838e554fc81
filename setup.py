"""The optional compiled simulation kernels (typed Cython; see docs/simulation.md).

Every other setting is in pyproject.toml. Each kernel is an optional extension: without a C
compiler, or if one fails to build, the install still succeeds and the Python reference plays
every battle (``tactica simulate`` says so). ``TACTICA_KERNELS_REQUIRED=1`` makes a failed
build an error instead; ``make test`` fails on a kernel that did not build in any case (a test
imports every kernel unless ``TACTICA_KERNELS_OPTIONAL=1``).
"""

import os
from pathlib import Path

from setuptools import Extension, setup

REQUIRED = os.environ.get("TACTICA_KERNELS_REQUIRED", "") == "1"


def _kernels() -> list[Extension]:
    try:
        from Cython.Build import cythonize
    except ImportError:  # no Cython in the build environment: the reference plays
        if REQUIRED:
            raise
        return []
    # Every game's kernel is a ``_kernel.pyx`` beside its rules, found here by name.
    # The greedy policies' values are compared as floats: no fused multiply-add, so the C
    # arithmetic rounds exactly as the reference's numpy does.
    extensions = [
        Extension(
            "tactica.rulesets." + source.parent.name + "._kernel",
            [source.as_posix()],
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=not REQUIRED,
        )
        for source in sorted(Path("src/tactica/rulesets").glob("*/_kernel.pyx"))
    ]
    try:
        built = cythonize(extensions, language_level=3, quiet=True, include_path=["src"])
    except Exception:
        if REQUIRED:
            raise
        return []
    for ext in built:  # cythonize makes new extensions: keep them optional
        ext.optional = not REQUIRED
    return list(built)


setup(ext_modules=_kernels())

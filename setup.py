"""Build hook for the optional C accelerator; metadata lives in pyproject.toml.

``optional=True``: without a C compiler the package installs anyway and
runs the pure-Python references (``scrapy_bte.ACCELERATED`` tells which C
passes are in use).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "scrapy_bte.core._scan",
            sources=["scrapy_bte/core/_scan.c"],
            depends=["scrapy_bte/core/_scan_impl.h"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.core._entities",
            sources=["scrapy_bte/core/_entities.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.core._hints",
            sources=["scrapy_bte/core/_hints.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.core._tree", sources=["scrapy_bte/core/_tree.c"], extra_compile_args=["-O2"], optional=True
        ),
        Extension(
            "scrapy_bte.core._fingerprint",
            sources=["scrapy_bte/core/_fingerprint.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.core._furniture",
            sources=["scrapy_bte/core/_furniture.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.fields._marks",
            sources=["scrapy_bte/fields/_marks.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.fields._langid",
            sources=["scrapy_bte/fields/_langid.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.methods._bte", sources=["scrapy_bte/methods/_bte.c"], extra_compile_args=["-O2"], optional=True
        ),
        Extension(
            "scrapy_bte.methods._em", sources=["scrapy_bte/methods/_em.c"], extra_compile_args=["-O2"], optional=True
        ),
        Extension(
            "scrapy_bte.learned._textstats",
            sources=["scrapy_bte/learned/_textstats.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.learned._auto",
            sources=["scrapy_bte/learned/_auto.c"],
            depends=["scrapy_bte/learned/_arrays.h"],
            # No fused multiply-add: the smoothed probabilities round as numpy's separate products and sums.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.learned._mlp",
            sources=["scrapy_bte/learned/_mlp.c"],
            # -O3 vectorises the row loop; each value is still one float32 subtraction and one division.
            extra_compile_args=["-O3", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "scrapy_bte.learned._features",
            sources=["scrapy_bte/learned/_features.c"],
            depends=["scrapy_bte/learned/_arrays.h"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)

"""Build hook for the optional C accelerator; metadata lives in pyproject.toml.

``optional=True``: without a C compiler the package installs anyway and
runs the pure-Python references (``ACCELERATED`` in ``scrapy_bte.document``,
``scrapy_bte.density`` and ``scrapy_bte.features`` tells).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "scrapy_bte._scan",
            sources=["scrapy_bte/_scan.c"],
            depends=["scrapy_bte/_scan_impl.h"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension("scrapy_bte._bte", sources=["scrapy_bte/_bte.c"], extra_compile_args=["-O2"], optional=True),
        Extension("scrapy_bte._em", sources=["scrapy_bte/_em.c"], extra_compile_args=["-O2"], optional=True),
        Extension("scrapy_bte._textstats", sources=["scrapy_bte/_textstats.c"], extra_compile_args=["-O2"], optional=True),
        Extension("scrapy_bte._features", sources=["scrapy_bte/_features.c"], extra_compile_args=["-O2"], optional=True),
    ]
)

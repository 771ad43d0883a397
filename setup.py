"""Build hook for the optional C accelerator; metadata lives in pyproject.toml.

``optional=True``: without a C compiler the package installs anyway and
runs the pure-Python reference (``scrapy_bte.document.ACCELERATED`` tells).
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
        )
    ]
)

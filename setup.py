"""Build settings beyond pyproject.toml: the compiled move kernel (pdn/rules/_kernel.c).

The extension is optional: where no C compiler is present the install still succeeds and the
pure-Python twin in pdn/rules/position.py runs (`pdn --version` says which core is in use).
"""

from setuptools import Extension, setup

# pdn/engine/_search.c (the built-in engine's search, with _draws.c and _evaluate.c) is compiled
# as part of the kernel
kernel = Extension(
    "pdn.rules._kernel",
    ["pdn/rules/_kernel.c"],
    depends=["pdn/engine/_search.c", "pdn/engine/_draws.c", "pdn/engine/_evaluate.c"],
    optional=True,
)
setup(ext_modules=[kernel])

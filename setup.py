"""Build settings beyond pyproject.toml: the compiled move kernel (pdn/rules/_kernel.c).

The extension is optional: where no C compiler is present the install still succeeds and the
pure-Python twin in pdn/rules/position.py runs (`pdn --version` says which core is in use).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("pdn.rules._kernel", ["pdn/rules/_kernel.c"], optional=True)])

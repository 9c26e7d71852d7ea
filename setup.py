"""The package list is found, not kept by hand: every package under sheetgen/ (a new game's
package cannot be left out of the wheel), plus layouts/ and fonts/, which live at the top of the
repository (the design card) and ship inside the package as sheetgen.layouts and sheetgen.fonts
(pyproject.toml's [tool.setuptools] package-dir and package-data say where and which files)."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["sheetgen", "sheetgen.*"]) + ["sheetgen.layouts", "sheetgen.fonts"])

# Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
"""Dumps what the A2A TCK's tests are, without running any: one JSON object per test node.

Run by `npm run tck` (scripts/tck.mjs) in its temporary copy of the TCK, with the TCK's root as
the working directory. Collection only (`--collect-only`): no test runs, the TCK is unchanged.
For each test it writes the node id (pytest's, as in the JUnit XML: ``classname.name``), the
requirement level the test is judged at (its ``must``/``should``/``may`` marker), the binding
(the ``transport`` parameter or marker, as the TCK's own safety-net hook reads it) and the
requirement id (the ``requirement`` parameter, else the first id in the test's, its class's or
its module's docstring: the TCK's own rule).

Usage: python3 collect.py OUT.json
"""

from __future__ import annotations

import json
import re
import sys

import pytest

_REQUIREMENT_ID_RE = re.compile(r"([A-Z][A-Z0-9_]+-[A-Z]+-\d+[a-z]?)")
_LEVELS = ("must", "should", "may")
_TRANSPORTS = ("grpc", "jsonrpc", "http_json")


def _requirement(item: pytest.Item) -> str:
    params = getattr(getattr(item, "callspec", None), "params", {})
    requirement = params.get("requirement")
    if requirement is not None and hasattr(requirement, "id"):
        return requirement.id
    for owner in (getattr(item, "function", None), getattr(item, "cls", None), getattr(item, "module", None)):
        match = _REQUIREMENT_ID_RE.search(getattr(owner, "__doc__", None) or "")
        if match:
            return match.group(1)
    return ""


def _transport(item: pytest.Item) -> str:
    params = getattr(getattr(item, "callspec", None), "params", {})
    transport = params.get("transport")
    if isinstance(transport, str):
        return transport
    for name in _TRANSPORTS:
        if item.get_closest_marker(name) is not None:
            return name
    return ""


class _Dump:
    def __init__(self) -> None:
        self.tests: dict[str, dict[str, str]] = {}

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            path, _, rest = item.nodeid.partition("::")
            dotted = path.removesuffix(".py").replace("/", ".") + "." + rest.replace("::", ".")
            level = next((name.upper() for name in _LEVELS if item.get_closest_marker(name) is not None), "")
            self.tests[dotted] = {"requirement": _requirement(item), "level": level, "transport": _transport(item)}


def main() -> int:
    dump = _Dump()
    code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "tests/compatibility"], plugins=[dump])
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        json.dump(dump.tests, out, indent=1, sort_keys=True)
    return int(code)


if __name__ == "__main__":
    sys.exit(main())

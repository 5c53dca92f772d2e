#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails on coroutine calls that g++ 12 miscompiles, and on co_returns QCoro 0.8 mangles.

Inside a co_await expression, g++ 12 copies some prvalue arguments bitwise into the
callee's coroutine frame and then also destroys the original: a lambda converted to a
std::function parameter, or an aggregate built from braces, is freed twice. Bind such an
argument to a named variable and pass it (or std::move it) instead.

QCoro 0.8's Task promise has `template <U> return_value(U &&value) { mValue = std::move(value); }`:
`co_return x;` of a non-const lvalue *moves from x* even when x is a member, a container
element or something reached through a pointer, which outlives the coroutine. Only a local
(which dies anyway) may be co_returned by name; copy others explicitly (`T(m_x)`) or
std::move them on purpose. See README, "Notes for developers".
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAMBDA_ARG = re.compile(r"[(,]\s*\[[^\]]*\]\s*(\([^)]*\))?\s*(mutable\s*)?(->[^{]*)?\{")
BRACED_ARG = re.compile(r"[(,]\s*[A-Za-z_:<>]*\s*\{[^{}]*\}\s*[,)]")
# co_await as an operand of ?: is miscompiled as well (the result object is corrupted).
# A ':' only counts after a '?' (a case label or a bit-field is no conditional).
CONDITIONAL_AWAIT = re.compile(r"\?\s*co_await|\?[^;]*:\s*co_await")
# co_return of a member (m_x), a member of something (a->b, a.b) or an element (a[i]).
MOVED_LVALUE = re.compile(r"\bco_return\s+(m_\w+|\*?\w+(\s*(->|\.)\s*\w+|\[[^\]]*\])+)\s*;")


def statements(text):
    """Yields (line number, statement) for each ';'-terminated statement holding co_await."""
    start_line = 1
    current = []
    line = 1
    for char in text:
        current.append(char)
        if char == "\n":
            line += 1
        if char == ";":
            statement = "".join(current)
            if "co_await" in statement or "co_return" in statement:
                yield start_line, statement
            current = []
            start_line = line


def main():
    problems = []
    for folder in ("core", "tests", "app", "ui"):
        for path in sorted((ROOT / folder).rglob("*.cpp")) + sorted((ROOT / folder).rglob("*.h")):
            raw = path.read_text(encoding="utf-8")
            # A statement may opt out with a trailing "// coroutine-args: ok" (a test that
            # exercises the workaround itself).
            raw = re.sub(r"[^\n;]*;[ \t]*// coroutine-args: ok", ";", raw)
            text = re.sub(r"//[^\n]*", "", raw)
            for line, statement in statements(text):
                if MOVED_LVALUE.search(statement):
                    problems.append(f"{path.relative_to(ROOT)}:{line}: co_return moves from a non-local: "
                                    + " ".join(statement.split())[:120])
                if "co_await" not in statement:
                    continue
                awaited = statement[statement.index("co_await"):]
                if CONDITIONAL_AWAIT.search(statement):
                    problems.append(f"{path.relative_to(ROOT)}:{line}: co_await inside a conditional expression: "
                                    + " ".join(statement.split())[:120])
                elif LAMBDA_ARG.search(awaited) or BRACED_ARG.search(awaited):
                    problems.append(f"{path.relative_to(ROOT)}:{line}: argument built inside co_await: "
                                    + " ".join(awaited.split())[:120])
    for problem in problems:
        print(problem)
    print(f"{len(problems)} coroutine call(s) g++ 12 miscompiles or QCoro 0.8 moves from")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""A small, safe expression language for the invariants a game declares in YAML.

Expressions use Python's syntax but are never given to `eval`: they are parsed with `ast` and
interpreted here, accepting only literals, names, arithmetic, comparisons, `and`/`or`/`not`,
`x if c else y`, subscripts, attribute access on mappings and calls of the functions given.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
UNARY: dict[type, Callable[[Any], Any]] = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}


MAX_SOURCE = 2_000  # characters of one expression
MAX_ITEMS = 100_000  # characters or items a `*` may make
MAX_BITS = 20_000  # size of a whole number a `*` may make (about 6,000 digits)


class ExpressionError(Exception):
    """The expression is malformed or uses something it may not (message says what)."""


class ExpressionTooLarge(ExpressionError):
    """The expression asks for more work or memory than any game needs: bad input, not a failed check."""


class Namespace(dict[str, Any]):
    """A mapping whose keys can also be read as attributes: deck.assets or deck['status-symbols']."""


def parse(source: str) -> ast.Expression:
    if len(str(source)) > MAX_SOURCE:
        raise ExpressionTooLarge(f"an expression of {len(str(source)):,} characters (at most {MAX_SOURCE:,})")
    try:
        tree = ast.parse(str(source), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"cannot parse '{source}': {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionTooLarge(f"cannot parse '{source[:60]}...': nested too deeply") from None
    for node in ast.walk(tree):
        allowed = (
            ast.Expression,
            ast.Constant,
            ast.Name,
            ast.Load,
            ast.BinOp,
            ast.UnaryOp,
            ast.BoolOp,
            ast.Compare,
            ast.IfExp,
            ast.Subscript,
            ast.Attribute,
            ast.Call,
            ast.Tuple,
            ast.List,
            ast.Dict,
            ast.And,
            ast.Or,
            *BINARY,
            *COMPARE,
            *UNARY,
        )
        if not isinstance(node, allowed):
            raise ExpressionError(f"'{type(node).__name__}' is not allowed in '{source}'")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise ExpressionError(f"'{node.attr}' is not allowed in '{source}'")
    return tree


# What an expression gives is whatever the game's data and the functions give (a number, a text, a card's
# mapping...): Any, as the callers check what they need (a whole number of copies, a true invariant).
def evaluate(source: str, names: dict[str, Any], functions: dict[str, Callable[..., Any]] | None = None) -> Any:
    tree = parse(source)
    try:
        return _eval(tree.body, names, functions or {}, source)
    except RecursionError:
        raise ExpressionTooLarge(f"'{source[:60]}...' is nested too deeply") from None
    except (TypeError, ValueError, OverflowError, ArithmeticError) as exc:  # e.g. -'text', {[1]: 2}
        raise ExpressionError(f"cannot compute '{source}': {exc}") from None


def bounded_product(left: Any, right: Any, source: str) -> Any:
    """left * right, refused when it would make a huge text, list or number (`'a' * 99999999999`)."""
    for sized, times in ((left, right), (right, left)):
        if isinstance(sized, (str, tuple, list)) and isinstance(times, int) and len(sized) * times > MAX_ITEMS:
            raise ExpressionTooLarge(f"'{source}' would make {len(sized) * times:,} items (at most {MAX_ITEMS:,})")
    if isinstance(left, int) and isinstance(right, int) and abs(left).bit_length() + abs(right).bit_length() > MAX_BITS:
        raise ExpressionTooLarge(f"'{source}' would make a number of more than {MAX_BITS * 3 // 10:,} digits")
    return left * right


# node None: the key of a `{**mapping}` entry, which nothing below evaluates
def _eval(node: ast.expr | None, names: dict[str, Any], functions: dict[str, Callable[..., Any]], source: str) -> Any:
    def ev(child: ast.expr | None) -> Any:
        return _eval(child, names, functions, source)

    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in names:
            return names[node.id]
        raise ExpressionError(f"unknown name '{node.id}' in '{source}' (known: {', '.join(sorted(names))})")
    if isinstance(node, ast.Attribute):
        base = ev(node.value)
        if isinstance(base, dict) and node.attr in base:
            return base[node.attr]
        raise ExpressionError(f"'{node.attr}' is unknown in '{source}'")
    if isinstance(node, ast.Subscript):
        base, key = ev(node.value), ev(node.slice)
        try:
            return base[key]
        except (KeyError, IndexError, TypeError):
            raise ExpressionError(f"no entry {key!r} in '{source}'") from None
    if isinstance(node, ast.BinOp):
        left, right = ev(node.left), ev(node.right)
        try:
            if isinstance(node.op, ast.Mult):
                return bounded_product(left, right, source)
            return BINARY[type(node.op)](left, right)
        except (TypeError, ZeroDivisionError) as exc:
            raise ExpressionError(f"cannot compute '{source}': {exc}") from None
    if isinstance(node, ast.UnaryOp):
        return UNARY[type(node.op)](ev(node.operand))
    if isinstance(node, ast.BoolOp):
        if isinstance(node.op, ast.And):
            return all(ev(v) for v in node.values)
        return any(ev(v) for v in node.values)
    if isinstance(node, ast.Compare):
        left = ev(node.left)
        for op, comparator in zip(node.ops, node.comparators):
            right = ev(comparator)
            try:
                if not COMPARE[type(op)](left, right):
                    return False
            except TypeError as exc:
                raise ExpressionError(f"cannot compare in '{source}': {exc}") from None
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return ev(node.body) if ev(node.test) else ev(node.orelse)
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(ev(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return {ev(k): ev(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in functions or node.keywords:
            name = getattr(node.func, "id", "?")
            raise ExpressionError(f"unknown function '{name}' in '{source}' (known: {', '.join(sorted(functions))})")
        try:
            return functions[node.func.id](*[ev(a) for a in node.args])
        except ExpressionError:
            raise
        except Exception as exc:  # noqa: BLE001 - a function given bad arguments by the YAML
            raise ExpressionError(f"{node.func.id}(...) failed in '{source}': {exc}") from None
    raise ExpressionError(f"cannot evaluate '{source}'")

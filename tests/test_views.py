"""Templates use exactly the view fields documented in ``site_builder.site.views``, ``page_views``, ``agent_views``
and ``project_views``.

Each page view names its template, which receives the view as ``page``. The test
follows every template's Jinja AST knowing the Python type of each name in scope:
``{% for group in page.backlinks %}`` binds ``group`` to ``BacklinkGroup``, ``{% with %}`` and
``{% set %}`` bind their values, and ``{% include %}``, ``{% extends %}`` and macro calls
carry the scope along (a macro is found by name in any template, however it is
imported). The partials rendered once per item (``environment.PARTS``) are followed
with the item's view in scope. Every ``x.attr`` on a view must be a field documented by a
``#:`` comment on its line, and every documented field must be used by some template.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import types
import typing
from typing import Any

from jinja2 import nodes

from site_builder.site import agent_views, page_views, project_views, views
from site_builder.site.environment import PARTS, make_environment, use_templates

ENV = make_environment()
VIEWS: list[type] = [
    c
    for module in (views, page_views, agent_views, project_views)
    for c in vars(module).values()
    if isinstance(c, type) and c.__module__ == module.__name__
]
PAGES = [c for c in VIEWS if issubclass(c, views.PageView) and "template" in vars(c)]


def field_docs(cls: type) -> dict[str, str]:
    """The fields ``cls`` declares itself, each with the ``#:`` comment on its line ("" without one)."""
    lines, _ = inspect.getsourcelines(cls)
    body = ast.parse("".join(lines)).body[0]
    assert isinstance(body, ast.ClassDef)
    fields = {f.name for f in dataclasses.fields(cls)}
    return {
        stmt.target.id: lines[stmt.lineno - 1].partition("#:")[2].strip()
        for stmt in body.body
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id in fields
    }


DOCS = {cls: field_docs(cls) for cls in VIEWS}
HINTS = {cls: typing.get_type_hints(cls) for cls in VIEWS}


@functools.cache
def parse(name: str) -> nodes.Template:
    assert ENV.loader is not None
    return ENV.parse(ENV.loader.get_source(ENV, name)[0])


MACROS = {m.name: m for name in ENV.list_templates() for m in parse(name).find_all(nodes.Macro)}


def without_none(kind: Any) -> Any:
    """``X | None`` -> ``X``."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(kind) if a is not type(None)]
        return rest[0] if len(rest) == 1 else None
    return kind


def macro_name(call: nodes.Call) -> str:
    """``m`` for ``m(...)`` and ``lib.m(...)``."""
    return str(getattr(call.node, "name", getattr(call.node, "attr", "")))


JINJA_GLOBALS = frozenset({"namespace", "range", "dict", "cycler", "joiner"})  # names Jinja2 gives every template


class Walker:
    """Follows templates with the type of each name in scope; records the view fields used and any mistakes."""

    def __init__(self) -> None:
        self.used: set[tuple[type, str]] = set()
        self.mistakes: dict[str, None] = {}  # in order, once each (base.html is walked for every page)
        self.templates: set[str] = set()

    def template(self, name: str, scope: dict[str, Any]) -> None:
        self.templates.add(name)
        self.walk(parse(name), dict(scope), name)

    def walk(self, node: nodes.Node, scope: dict[str, Any], at: str) -> None:
        if isinstance(node, nodes.For):
            inner = scope | self.bind(node.target, self.element(self.type_of(node.iter, scope, at))) | {"loop": None}
            self.walk_all([*([node.test] if node.test else []), *node.body], inner, at)
            self.walk_all(node.else_, scope, at)
        elif isinstance(node, nodes.With):
            inner = dict(scope)
            for target, value in zip(node.targets, node.values, strict=True):
                inner |= self.bind(target, self.type_of(value, scope, at))
            self.walk_all(node.body, inner, at)
        elif isinstance(node, nodes.Assign):
            scope |= self.bind(node.target, self.type_of(node.node, scope, at))
        elif isinstance(node, nodes.Include | nodes.Extends):
            assert isinstance(node.template, nodes.Const), f"{at}: templates are named by constants"
            self.template(node.template.value, scope)
        elif isinstance(node, nodes.Expr):
            self.type_of(node, scope, at)
        elif not isinstance(node, nodes.Macro):  # a macro is followed where it is called
            self.walk_all(node.iter_child_nodes(), scope, at)

    def walk_all(self, children: typing.Iterable[nodes.Node], scope: dict[str, Any], at: str) -> None:
        for child in children:
            self.walk(child, scope, at)

    def type_of(self, expr: nodes.Node, scope: dict[str, Any], at: str) -> Any:
        """The Python type of ``expr`` when it is known, else None; checks every attribute taken on a view."""
        if isinstance(expr, nodes.Name):
            if expr.name not in scope and expr.name not in JINJA_GLOBALS:
                self.mistakes[f"{at}: unknown name {expr.name!r}"] = None
            return scope.get(expr.name)
        if isinstance(expr, nodes.Getattr):
            return self.attribute(self.type_of(expr.node, scope, at), expr.attr, at)
        if isinstance(expr, nodes.Call) and macro_name(expr) in MACROS:
            return self.call(MACROS[macro_name(expr)], expr, scope, at)
        kinds = [self.type_of(child, scope, at) for child in expr.iter_child_nodes()]
        if isinstance(expr, nodes.Filter):  # ``sum(attribute="count")`` takes a field of each element
            for kw in expr.kwargs:
                if kw.key == "attribute" and isinstance(kw.value, nodes.Const):
                    self.attribute(self.element(kinds[0]), kw.value.value, at)
        if isinstance(expr, nodes.Filter) and expr.name == "dictsort" and kinds[0] is not None:
            return types.GenericAlias(list, types.GenericAlias(tuple, typing.get_args(kinds[0])))  # (key, value) pairs
        return None

    def attribute(self, owner: Any, attr: str, at: str) -> Any:
        owner = without_none(owner)
        if owner not in DOCS:
            return None  # not a view: a string, a number, ``loop``
        declared = next((cls for cls in owner.__mro__ if attr in DOCS.get(cls, {})), None)
        if declared is None or not DOCS[declared][attr]:
            self.mistakes[f"{at}: {owner.__name__}.{attr} is not a documented field"] = None
            return None
        self.used.add((declared, attr))
        return HINTS[owner][attr]

    def call(self, macro: nodes.Macro, call: nodes.Call, scope: dict[str, Any], at: str) -> None:
        """Follow a macro's body with its parameters bound to the types of the arguments."""
        params = {p.name: self.type_of(a, scope, at) for p, a in zip(macro.args, call.args, strict=False)}
        params |= {kw.key: self.type_of(kw.value, scope, at) for kw in call.kwargs}
        self.walk_all(macro.body, scope | dict.fromkeys(p.name for p in macro.args) | params, at)

    def bind(self, target: nodes.Node, kind: Any) -> dict[str, Any]:
        if isinstance(target, nodes.Name):
            return {target.name: kind}
        if isinstance(target, nodes.NSRef):  # ``{% set shown.lines = … %}``: a namespace's attribute, no new name
            return {}
        assert isinstance(target, nodes.Tuple)
        items = typing.get_args(kind) if typing.get_origin(kind) is tuple else [None] * len(target.items)
        return {k: v for item, sub in zip(target.items, items, strict=True) for k, v in self.bind(item, sub).items()}

    @staticmethod
    def element(kind: Any) -> Any:
        return typing.get_args(kind)[0] if typing.get_origin(kind) is list else None


@functools.cache
def walked() -> Walker:
    walker = Walker()
    for page in PAGES:
        walker.template(page.template, {"page": page})
    for template, (name, view) in PARTS.items():  # rendered once per item, on their own
        walker.template(template, {name: view})
    return walker


def test_every_view_field_is_documented() -> None:
    undocumented = [f"{cls.__name__}.{name}" for cls in VIEWS for name, doc in DOCS[cls].items() if not doc]
    assert not undocumented, f"document these fields with a `#:` comment: {undocumented}"


def test_templates_use_only_documented_fields() -> None:
    assert not walked().mistakes, "\n".join(walked().mistakes)


def test_every_documented_field_is_used_by_a_template() -> None:
    unused = [f"{cls.__name__}.{name}" for cls in VIEWS for name in DOCS[cls] if (cls, name) not in walked().used]
    assert not unused, f"no template uses these fields; remove them from the views: {unused}"


def test_every_template_is_rendered() -> None:
    use_templates(())  # memwiki's own templates, whatever a build with a workspace's left in the environment
    assert set(ENV.list_templates()) == walked().templates, "a template no page view reaches"

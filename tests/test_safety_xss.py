"""Untrusted text: every payload of tests/corpus/xss.txt, in every input position, opened in Chromium.

Two layers are proven separately: the site's own escaping (served with its
Content-Security-Policy stripped, nothing may run or even be present as live
markup), and the CSP (the normal site must report no violations at all).
"""

from __future__ import annotations

from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from site_builder.build import build
from site_builder.reflect.offline import OfflineReflector
from tests.conftest import EXAMPLE, REPO, QuietHandler, serving, write_workspace

PAYLOADS = [line for line in (REPO / "tests/corpus/xss.txt").read_text(encoding="utf-8").splitlines() if line]
OUR_SCRIPTS = tuple(
    f"_theme/{name}.js"
    for name in ("theme", "app", "layout", "search-core", "live-search", "preview", "search", "graph")
)

PAGE_AUDIT = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const value = attr.value.trim().toLowerCase().replace(/[\\s\\u0000-\\u001f]+/g, '');
      if (attr.name.startsWith('on')) bad.push(`${el.tagName} ${attr.name}`);
      if (['href', 'src', 'action', 'data', 'formaction', 'xlink:href'].includes(attr.name)
          && (value.startsWith('javascript:') || value.startsWith('data:') || value.startsWith('vbscript:')))
        bad.push(`${el.tagName} ${attr.name}=${attr.value}`);
      if (attr.name === 'style') bad.push(`${el.tagName} style`);
    }
    if (['IFRAME', 'OBJECT', 'EMBED', 'BASE', 'FORM', 'INPUT', 'VIDEO', 'MATH', 'STYLE'].includes(el.tagName)
        && !el.closest('.site-search, form[data-search-page], .graph-tools, .record-filter')) bad.push(`element ${el.tagName}`);
    if (el.tagName === 'META' && (el.getAttribute('http-equiv') || '').toLowerCase() === 'refresh') bad.push('meta refresh');
    if (el.matches('script.graph-data[type="application/json"]:not([src])')) {  // data for graph.js, never run
      try { JSON.parse(el.textContent); } catch (e) { bad.push('graph data is not JSON'); }
    } else if (el.tagName === 'SCRIPT' && !OURS.some(s => (el.getAttribute('src') || '').endsWith(s))) bad.push('script ' + (el.getAttribute('src') || el.textContent.slice(0, 40)));
  }
  return bad;
}"""


def test_the_corpus_has_at_least_thirty_payloads() -> None:
    assert len(PAYLOADS) >= 30


def _yaml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def payload_workspace(root: Path) -> Path:
    """Each payload in every position: body, heading, fact, opinion, link target and label,
    entity name and alias, front matter title, file name, site title."""
    files: dict[str, str | bytes] = {
        "memwiki.toml": f"[site]\ntitle = {_yaml(PAYLOADS[0])}\n",
        "memory.md": "# Core\n\n" + "\n".join(f"- {p}" for p in PAYLOADS) + "\n",
        "bank/opinions.md": "# Opinions\n\n"
        + "\n".join(f"- O(c=0.5) @Peter: {p} ^op-{i}" for i, p in enumerate(PAYLOADS))
        + "\n",
        "bank/entities/Peter.md": "---\naliases: [" + ", ".join(_yaml(p) for p in PAYLOADS) + "]\n---\n# Peter\n",
    }
    for i, payload in enumerate(PAYLOADS):
        day = f"memory/2025-{1 + i // 28:02d}-{1 + i % 28:02d}.md"
        files[day] = (
            f"---\ntitle: {_yaml(payload)}\n---\n# {payload}\n\n{payload}\n\n"
            f"See [{payload}]({payload}) and [[{payload}]] and [[Peter|{payload}]] and [[Peter#{payload}]].\n\n"
            f"## {payload}\n\n## Retain\n- W @Peter: {payload}\n- O(c=0.6) @Peter: {payload} ^op-{i}\n"
            f"- S @Peter: [[{payload}]] said {payload}\n"
        )
        if "/" not in payload and len(payload.encode()) < 200:
            files[f"bank/entities/{payload}.md"] = f"---\ntitle: {_yaml(payload)}\n---\n# {payload}\n\n{payload}\n"
    return write_workspace(root, files)


class NoCSP(QuietHandler):
    """Serves the site with its Content-Security-Policy removed, to test escaping on its own."""

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        html = path.read_text(encoding="utf-8")
        html = html.replace('<meta http-equiv="Content-Security-Policy"', '<meta name="csp-removed"')
        body = html.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        import io

        return io.BytesIO(body)


@pytest.fixture(scope="module")
def payload_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    top = tmp_path_factory.mktemp("xss")
    ws = payload_workspace(top / "ws")
    result = build(ws, top / "site", reflector=OfflineReflector())
    assert result.written
    yield top / "site"


def visit_all(page: Any, base: str, site: Path, handler_csp: bool) -> tuple[list[str], list[str], list[str]]:
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.add_init_script(
        "window.__csp = []; document.addEventListener('securitypolicyviolation',"
        " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));"
    )
    problems: list[str] = []
    violations: list[str] = []
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    audit = PAGE_AUDIT.replace("OURS", repr(list(OUR_SCRIPTS)))
    for rel in pages:
        page.goto(base + rel.replace("%", "%25").replace("#", "%23").replace("?", "%3F"))
        page.wait_for_timeout(30)
        problems += [f"{rel}: {p}" for p in page.evaluate(audit)]
        violations += [f"{rel}: {v}" for v in page.evaluate("window.__csp")]
    page.goto(base + "search.html?q=alert+script+onerror")
    page.wait_for_selector(".search-result")
    page.wait_for_timeout(300)
    problems += [f"search: {p}" for p in page.evaluate(audit)]
    violations += [f"search: {v}" for v in page.evaluate("window.__csp")]
    assert len(pages) > 60
    return dialogs, problems, violations


@pytest.mark.browser
@pytest.mark.slow
def test_no_payload_runs_or_survives_as_markup_without_the_csp(browser: Any, payload_site: Path) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    with serving(payload_site, NoCSP) as base:
        dialogs, problems, _ = visit_all(page, base, payload_site, handler_csp=False)
    context.close()
    assert dialogs == []
    assert problems == []
    assert errors == []
    assert page.is_closed()


@pytest.mark.browser
@pytest.mark.slow
def test_the_csp_reports_no_violation_on_the_payload_site(browser: Any, payload_site: Path) -> None:
    context = browser.new_context()
    page = context.new_page()
    with serving(payload_site, QuietHandler) as base:
        dialogs, problems, violations = visit_all(page, base, payload_site, handler_csp=True)
    context.close()
    assert dialogs == [] and problems == []
    assert violations == []


@pytest.mark.browser
@pytest.mark.slow
def test_the_example_site_passes_its_own_csp(browser: Any, tmp_path: Path) -> None:
    build(EXAMPLE, tmp_path / "site")
    context = browser.new_context()
    page = context.new_page()
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text) if m.type in ("error", "warning") else None)
    with serving(tmp_path / "site", SimpleHTTPRequestHandler) as base:
        page.add_init_script(
            "window.__csp = []; document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective));"
        )
        for rel in [
            "index.html",
            "bank/opinions.html",
            "bank/entities/anna.html",
            "memory/2025-11-28.html",
            "search.html?q=lamps",
        ]:
            page.goto(base + rel)
            page.wait_for_timeout(300)
            assert page.evaluate("window.__csp") == [], rel
    context.close()
    assert [m for m in messages if "Content Security Policy" in m] == []

"""The co-mention graph: its model, the JSON pages carry, and the canvas drawing it in Chromium."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from site_builder.build import build
from site_builder.library.graph import Neighbourhoods, co_mention_graph
from site_builder.load import load
from tests.bench.gen_corpus import generate
from tests.conftest import EXAMPLE, serving, write_workspace

DATA = re.compile(r'<script type="application/json" class="graph-data">(.*?)</script>', re.S)

SMALL = {
    "bank/entities/Ann.md": "---\ntype: person\n---\n# Ann\n\nWorks with @Bo.\n",
    "bank/entities/Bo.md": "# Bo\n\nA builder.\n",
    "memory/2025-01-01.md": "# Day\n\n@Ann and @Bo met.\n@Ann, @Bo and @Cy ate.\n",
    "memory/2025-01-02.md": "# Day\n\n@Cy </script><b>x</b> & @Ann.\n",
}


def graph_data(html: str) -> dict[str, Any]:
    found = DATA.search(html)
    assert found, "no graph data block"
    data: dict[str, Any] = json.loads(found[1])
    return data


def test_co_mentions_make_weighted_edges_and_days_link_the_entities_they_mention(tmp_path: Path) -> None:
    library = load(write_workspace(tmp_path, SMALL)).library
    graph = co_mention_graph(library)
    names = [n.key for n in graph.nodes]
    assert names == ["ann", "bo", "cy", "memory/2025-01-01.md", "memory/2025-01-02.md"]
    assert [n.mentions for n in graph.nodes] == [3, 3, 2, 5, 2]  # Bo: two lines of the day, one on Ann's page
    ann, bo, cy, day1, day2 = range(5)
    edges = {(a, b): w for a, b, w in graph.edges}
    assert edges[(ann, bo)] == 3 and edges[(ann, cy)] == 2 and edges[(bo, cy)] == 1
    assert edges[(ann, day1)] == 2 and edges[(cy, day2)] == 1 and (bo, day2) not in edges
    assert [n.key for n in co_mention_graph(library, days=False).nodes] == ["ann", "bo", "cy"]
    around = Neighbourhoods(library).of("cy")
    assert [n.key for n in around.nodes] == ["cy", "ann", "bo"]  # most co-mentioned first
    assert {(a, b) for a, b, _ in around.edges} == {(0, 1), (0, 2), (1, 2)}


def test_graph_page_and_entity_pages_carry_the_graph_as_safe_json(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", SMALL)
    build(ws, tmp_path / "site", search=False)
    html = (tmp_path / "site/graph.html").read_text(encoding="utf-8")
    assert "</script><b>" not in html  # text from memory cannot close the data block
    data = graph_data(html)
    assert [(n["name"], n["href"], n["group"]) for n in data["nodes"][:3]] == [
        ("Ann", "bank/entities/ann.html", "person"),
        ("Bo", "bank/entities/bo.html", "entity"),
        ("Cy", "bank/entities/cy.html", "missing"),
    ]
    assert data["nodes"][3] == {"name": "2025-01-01", "href": "memory/2025-01-01.html", "mentions": 5, "group": "day"}
    assert data["focus"] == -1
    assert '<a href="graph.html" aria-current="page">Graph</a>' in html
    entity = (tmp_path / "site/bank/entities/cy.html").read_text(encoding="utf-8")
    local = graph_data(entity)
    assert local["focus"] == 0 and [n["href"] for n in local["nodes"]] == [
        f"../../bank/entities/{n}.html" for n in ("cy", "ann", "bo")
    ]
    assert 'src="../../_theme/graph.js"' in entity and "Cy and 2 related entities" in entity
    assert (tmp_path / "site/_theme/graph.js").is_file() and (tmp_path / "site/_theme/graph.css").is_file()


def test_an_entity_never_mentioned_with_another_has_no_graph(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"bank/entities/Solo.md": "# Solo\n", "memory/2025-01-01.md": "@Solo.\n"})
    build(ws, tmp_path / "site", search=False)
    assert "graph-data" not in (tmp_path / "site/bank/entities/solo.html").read_text(encoding="utf-8")


def test_a_mention_more_of_a_much_named_neighbour_leaves_the_pages_beside_it_as_they_were(tmp_path: Path) -> None:
    days = {
        f"memory/2025-01-{d:02d}.md": "# Day\n\n" + "".join(f"- @Big did {n}.\n" for n in range(11))
        for d in range(1, 12)
    }
    ws = write_workspace(
        tmp_path / "ws",
        {**days, "bank/entities/Big.md": "# Big\n", "bank/entities/Small.md": "# Small\n\nWorks with @Big.\n"},
    )
    out = tmp_path / "site"
    build(ws, out, search=False)
    small = out / "bank/entities/small.html"
    big = graph_data(small.read_text(encoding="utf-8"))["nodes"][1]
    assert (big["name"], big["mentions"], big.get("about")) == ("Big", 120, True)  # 122 lines: to two digits
    focus = graph_data((out / "bank/entities/big.html").read_text(encoding="utf-8"))["nodes"][0]
    assert (focus["mentions"], focus.get("about")) == (122, None)  # its own page: exact
    kept = small.stat().st_ino
    day = ws / "memory/2025-01-11.md"
    day.write_text(day.read_text(encoding="utf-8") + "- @Big did one more.\n", encoding="utf-8")
    build(ws, out, search=False)
    assert small.stat().st_ino == kept  # not made again: Big's node on it says ~120 still
    focus = graph_data((out / "bank/entities/big.html").read_text(encoding="utf-8"))["nodes"][0]
    assert focus["mentions"] == 123


# -- in Chromium ----------------------------------------------------------------------------------------------

SCREEN_POSITION = """name => {
  const graph = document.querySelector('figure[data-graph]').graph, v = graph.view;
  const node = graph.nodes.find(n => n.name === name);
  const box = graph.canvas.getBoundingClientRect();
  return [box.left + node.x * v.k + v.x, box.top + node.y * v.k + v.y];
}"""
INKED = """() => {
  const canvas = document.querySelector('.graph-canvas'), ctx = canvas.getContext('2d');
  const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  let inked = 0;
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) inked++;
  return inked;
}"""


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    top = tmp_path_factory.mktemp("host")
    build(EXAMPLE, top / "wiki", search=False)
    with serving(top) as url:
        yield url + "wiki/"


@pytest.mark.browser
def test_a_click_on_a_node_opens_its_page_and_find_focuses_one(page: Any, example_site: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(example_site + "graph.html")
    page.wait_for_selector(".graph-canvas[data-settled]")
    assert page.get_attribute(".graph-canvas", "data-nodes") == "15"
    assert page.locator(".graph-legend span").count() >= 3  # one colour per kind of entity, named
    page.fill("#graph-q", "tidew")
    page.press("#graph-q", "Enter")
    assert page.inner_text(".graph-status").startswith("Tidewater:")
    assert page.get_attribute(".graph-status a", "href") == "bank/entities/tidewater.html"
    page.check("input[name=days]")
    page.wait_for_function("() => document.querySelector('.graph-canvas').dataset.nodes === String(15 + 48)")
    page.uncheck("input[name=days]")
    page.click("button[data-zoom=fit]")
    page.wait_for_selector(".graph-canvas[data-settled]")
    x, y = page.evaluate(SCREEN_POSITION, "Marco")
    page.mouse.click(x, y)
    page.wait_for_url(re.compile(r"/wiki/bank/entities/marco\.html$"))
    page.wait_for_selector(".graph-local .graph-canvas[data-settled]")  # the entity page's own graph
    assert int(page.get_attribute(".graph-canvas", "data-drawn") or 0) >= 2
    assert page.evaluate(INKED) > 500


@pytest.mark.browser
def test_wheel_zooms_about_the_pointer_and_drag_pans(page: Any, example_site: str) -> None:
    page.goto(example_site + "graph.html")
    page.wait_for_selector(".graph-canvas[data-settled]")
    before = page.evaluate(SCREEN_POSITION, "Peter")
    box = page.locator(".graph-canvas").bounding_box()
    assert box is not None
    scale = "document.querySelector('figure[data-graph]').graph.view.k"
    fitted = page.evaluate(scale)
    page.mouse.move(box["x"] + 10, box["y"] + 10)  # an empty corner, which stays where it is
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"() => {scale} > {fitted}")
    page.mouse.down()
    page.mouse.move(box["x"] + 110, box["y"] + 60, steps=5)
    page.mouse.up()
    after = page.evaluate(SCREEN_POSITION, "Peter")
    assert after != before and page.url.endswith("/graph.html")  # a drag is no click


@pytest.mark.browser
@pytest.mark.slow
def test_the_graph_draws_two_thousand_nodes(page: Any, tmp_path: Path) -> None:
    generate(tmp_path / "ws", 120, 2000)
    build(tmp_path / "ws", tmp_path / "site", search=False)
    with serving(tmp_path / "site") as url:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(url + "graph.html")
        page.wait_for_function("() => performance.getEntriesByName('memwiki-graph-first-draw').length")
        assert page.get_attribute(".graph-canvas", "data-nodes") == "2000"
        assert int(page.get_attribute(".graph-canvas", "data-drawn") or 0) > 1900  # fitted: (nearly) all on screen
        assert page.evaluate(INKED) > 20_000
        page.fill("#graph-q", "Entity01999")
        page.press("#graph-q", "Enter")
        assert page.get_attribute(".graph-status a", "href") == "bank/entities/entity01999.html"


@pytest.mark.browser
def test_an_entity_page_links_to_the_whole_graph_opened_on_it(page: Any, example_site: str) -> None:
    page.goto(example_site + "bank/entities/sofia.html")
    page.click("text=Sofia in the whole graph")
    page.wait_for_url(re.compile(r"/wiki/graph\.html\?q=Sofia$"))
    assert page.input_value("#graph-q") == "Sofia"
    assert page.inner_text(".graph-status").startswith("Sofia:")
    page.wait_for_selector(".graph-canvas[data-settled]")
    x, y = page.evaluate(SCREEN_POSITION, "Sofia")
    box = page.locator(".graph-canvas").bounding_box()
    assert box is not None
    assert abs(x - (box["x"] + box["width"] / 2)) < 2 and abs(y - (box["y"] + box["height"] / 2)) < 2  # followed


def test_a_workspace_without_entities_says_how_to_get_a_graph(tmp_path: Path) -> None:
    build(
        write_workspace(tmp_path / "ws", {"memory/2025-01-01.md": "# Day\n\nQuiet.\n"}), tmp_path / "site", search=False
    )
    page = (tmp_path / "site/graph.html").read_text(encoding="utf-8")
    assert "No entities yet" in page and "graph-data" not in page


@pytest.mark.browser
def test_the_graph_draws_from_disk_where_nothing_can_be_fetched(page: Any, tmp_path: Path) -> None:
    build(write_workspace(tmp_path / "ws", SMALL), tmp_path / "site", search=False)
    page.goto((tmp_path / "site/graph.html").as_uri())
    page.wait_for_selector(".graph-canvas[data-settled]")
    assert page.get_attribute(".graph-canvas", "data-nodes") == "3"
    assert page.evaluate(INKED) > 200


@pytest.mark.browser
def test_find_offers_the_entity_names(page: Any, example_site: str) -> None:
    page.goto(example_site + "graph.html")
    page.focus("#graph-q")
    names = page.eval_on_selector_all("#graph-names option", "options => options.map(o => o.value)")
    assert "Tidewater" in names and len(names) == 15

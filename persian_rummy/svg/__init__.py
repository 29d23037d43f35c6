"""Pictures of the table: a :class:`~persian_rummy.GameState` or a
:class:`~persian_rummy.PlayerView` drawn as a self-contained SVG image.

The picture shows the four seats (North at the top, then East, South and West clockwise,
R3) with their hands, the melds with the seat credited for every card (R16), the discard
pile spread from bottom to top with the index of each card (R13), the size of the stock,
the scores and whose turn it is. A state shows every hand face up; a view shows only the
viewer's own hand face up and the other hands as card backs (R27), so a view's picture
never holds a card the viewer may not see.

Every card is one ``<g class="card" data-card="Qs">`` element (``class="card back"`` and no
``data-card`` for a face-down card). The image uses no external fonts or pictures: suit
symbols are drawn as paths. The colours are a :class:`Theme` that every drawing function
takes as ``colors=`` (a theme, or a mapping of some of its roles to colours).

>>> from persian_rummy import new_game
>>> picture = table(new_game(1).view(2))
>>> picture.count('class="card back"')  # 3 hands of 7, and the stock drawn as 3 backs
24
>>> import xml.etree.ElementTree as ET
>>> ET.fromstring(picture).tag
'{http://www.w3.org/2000/svg}svg'

The package's modules: the theme (``_theme``), the cached pieces (``_pieces``: a card, a
label, a meld, ...) and the layout that assembles them into pictures (``_layout``).
"""

from __future__ import annotations

from persian_rummy.state import SEAT_NAMES, TEAM_NAMES
from persian_rummy.svg._layout import cards_in, seat_tables, table, table_parts
from persian_rummy.svg._pieces import card
from persian_rummy.svg._theme import Theme

__all__ = ["SEAT_NAMES", "TEAM_NAMES", "Theme", "card", "cards_in", "seat_tables", "table", "table_parts"]

# The public names are this package's, wherever their code lives (their documentation says so).
for _public in (Theme, card, cards_in, seat_tables, table, table_parts):
    _public.__module__ = __name__
del _public

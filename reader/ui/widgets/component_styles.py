"""Component styles kept between repaints.

Textual forgets a widget's component styles whenever any part of it is refreshed, and
reading one again walks the widget tree: the list and the detail pane read a dozen of them
for every row or paper they draw, a sixth of the work of a key press. Their styles change
only when the stylesheet is applied to the widget again (a theme, a pseudo-class such as
focus), which Textual announces with ``notify_style_update``.
"""

from __future__ import annotations

from rich.style import Style
from textual.widget import Widget


class ComponentStyles(Widget):
    """A widget that reads its component styles once per style update. It comes after the
    widget's own Textual base (``class PaperList(ScrollView, ComponentStyles)``): Textual
    takes a widget's default CSS and type names from its first base only."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._component_style_cache: dict[str, Style] = {}

    def component_style(self, name: str) -> Style:
        """The Rich style of the component class ``name``, as on screen."""
        style = self._component_style_cache.get(name)
        if style is None:
            style = self._component_style_cache[name] = self.get_component_rich_style(name)
        return style

    def notify_style_update(self) -> None:
        """The stylesheet was applied again: read the component styles afresh."""
        super().notify_style_update()
        self._component_style_cache.clear()

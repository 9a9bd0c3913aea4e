"""Regenerate docs/screenshot.svg from the real app on the bundled sample.

Run with ``python scripts/screenshot.py`` after a change to what the main screen shows.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from reader.library import Library
from reader.resources import sample_files
from reader.ui.app import ReaderApp

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshot.svg"


async def main() -> None:
    """Import the sample, star and annotate a paper, search, and save the screen."""
    with tempfile.TemporaryDirectory() as tmp:
        library = Library(Path(tmp))
        library.import_files(sample_files())
        gdpval = library.search("title:gdpval").ids[0]
        library.set_starred(gdpval, True)
        library.save_note(gdpval, "Compare with our internal eval; grading service looks reusable.")
        app = ReaderApp(library, load_sample=False)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press("slash", *"benchmark evaluating")
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            OUT.write_text(app.export_screenshot(title="reader"), encoding="utf-8")
        library.close()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    asyncio.run(main())

"""The app by feature: each module holds one collaborator of :class:`reader.ui.app.ReaderApp`,
which owns its state and keeps its actions beside it; its screens live in
``reader.ui.screens``."""

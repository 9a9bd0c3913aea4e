"""The app by feature: each module holds one feature's actions and workers, mixed into
:class:`reader.ui.app.ReaderApp`; its screens live in ``reader.ui.screens``."""

"""Demo > Model card: asks the card use case (core.app.card.start_card: summary, shapes from
the worker, FLOPs, a measured time from a loaded profile) and shows what it writes into the
state."""

from __future__ import annotations


class ModelCardController:
    def __init__(self, state, tasks, panel):
        self.state, self.tasks, self.panel = state, tasks, panel
        self.cards_shown = 0
        state.model_changed.connect(lambda *_: panel.close_card())
        state.card_changed.connect(self._show)

    def show_card(self) -> None:
        # imported here: the card's analysis (FLOPs, model_card) stays off the first picture's
        # path (tests/gui/test_gui_startup.py)
        from inspector.core.app import card as card_use_case

        card_use_case.start_card(self.state, self.tasks,
                                 lambda exc: self.state.say(f"No model card: {exc}"),
                                 card_use_case.measured_ms(self.state.overlay))

    def _show(self, result) -> None:
        if result is None:
            return
        self.cards_shown += 1
        self.panel.show_card(result.card)
        self.panel.show_comparison(result.comparison)

"""The hand review and the game's accuracy as the terminal shows them.

The server judges each decision of a seat in a finished hand by the Hard
bot's search (``get_analysis`` → ``analysis``) and sums a finished game's
decisions per seat (``get_accuracy`` → ``game_accuracy``); docs/protocol.md
"Hand review". These functions turn those replies into lines for the
replay screen and the game-over screen, and a refusal into its sentence.
Reviews take seconds, so the screens ask for them in a worker and say
"reviewing…" meanwhile."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

from rich.style import Style
from rich.text import Text

from protocol import server_messages as sm

from .cards import label, labels
from .i18n import Msg, Translator, has_sentence

REVIEW_TIMEOUT = 120.0
"""Seconds to wait for one hand's review (the game's may take a few times
as long): the server judges each decision by a search, in workers shared
with the tables' bots."""

ReviewFetch = Callable[[int], Awaitable[sm.Analysis | Msg]]
"""Asks for the review of hand N of the game: the reply, or why not."""

AccuracyFetch = Callable[[], Awaitable[sm.GameAccuracy | Msg]]
"""Asks for the finished game's accuracy per seat: the reply, or why not."""

LABEL_STYLES = {
    "inaccuracy": Style(color="yellow"),
    "mistake": Style(color="dark_orange", bold=True),
    "blunder": Style(color="red", bold=True),
}


def review_refusal(code: str, message: str, reason: str | None, retry_after: float | None) -> Msg:
    """The sentence for a refused review: when to try again for
    ``rate_limited``, the case's sentence for ``not_now``, else the code's."""
    if code == "rate_limited":
        wait = max(1, math.ceil(retry_after)) if retry_after is not None else 1
        return Msg("review.rate_limited", {"n": wait})
    key = f"error.{code}.{reason}" if reason else ""
    return Msg(key if has_sentence(key) else "error." + code, {"message": message})


def _choice(t: Translator, kind: str, cards: tuple[str, ...]) -> str:
    if kind == "moon_choice":
        return " ".join(t(f"review.moon.{c}") for c in cards)
    return labels(cards) if len(cards) > 1 else label(cards[0]) if cards else ""


def decision_line(t: Translator, decision: sm.ReviewedDecision) -> Text:
    """One decision: what was chosen, the better option when it differs,
    the points it lost and its label."""
    text = Text(t(f"review.kind.{decision.kind}") + ": ", style=Style(bold=True))
    text.append(_choice(t, decision.kind, decision.chosen))
    if decision.best is None or decision.loss is None:
        text.append(" · " + t("review.not_judged"), style=Style(dim=True))
        return text
    if tuple(decision.best) == tuple(decision.chosen) or decision.loss <= 0:
        text.append(" · " + t("review.best"), style=Style(color="green"))
        return text
    text.append(" · " + t("review.better", cards=_choice(t, decision.kind, decision.best)))
    text.append(" · " + t("review.loss", loss=t.decimal(decision.loss, 1)))
    if decision.label is not None:
        text.append(" · ")
        text.append(t(f"review.label.{decision.label}"), style=LABEL_STYLES[decision.label])
    return text


def counts_text(t: Translator, accuracy: sm.Accuracy) -> str:
    """``1 inaccuracy · 2 mistakes · 0 blunders``."""
    return " · ".join(
        (
            t("review.inaccuracies", n=accuracy.inaccuracies),
            t("review.mistakes", n=accuracy.mistakes),
            t("review.blunders", n=accuracy.blunders),
        )
    )


def accuracy_line(t: Translator, accuracy: sm.Accuracy) -> Text:
    """A hand's accuracy: the mean loss per decision and the counts."""
    text = Text(t("review.accuracy") + ": ", style=Style(bold=True))
    text.append(t("review.mean_loss", loss=t.decimal(accuracy.mean_loss, 2), n=accuracy.decisions))
    text.append(" · " + counts_text(t, accuracy))
    return text


def review_text(t: Translator, analysis: sm.Analysis, trick: int, last_trick: bool) -> Text:
    """The review beside trick ``trick`` (0-based): the pass and the widow
    discard (decisions before the tricks), our play in this trick, the
    moon choice with the last trick, and the hand's accuracy."""

    def shown(decision: sm.ReviewedDecision) -> bool:
        if decision.kind == "play":
            return decision.trick == trick
        return decision.kind != "moon_choice" or last_trick

    lines = [decision_line(t, d) for d in analysis.decisions if shown(d)]
    lines.append(accuracy_line(t, analysis.accuracy))
    return Text("\n").join(lines)


def game_accuracy_text(t: Translator, reply: sm.GameAccuracy, name: Callable[[int], str]) -> Text:
    """Each seat's accuracy over the game, a line per seat: the mean loss
    per decision, then its mistakes and blunders."""
    width = min(max((len(name(s.seat)) for s in reply.seats), default=0), 14)
    lines = [Text(t("review.game_title", n=reply.hands), style=Style(bold=True))]
    for seat in reply.seats:
        acc = seat.accuracy
        line = Text(f"{name(seat.seat)[:width]:<{width}}  ")
        line.append(t("review.per_decision", loss=t.decimal(acc.mean_loss, 2)))
        line.append(" · ")
        line.append(t("review.mistakes", n=acc.mistakes), style=LABEL_STYLES["mistake"])
        line.append(" · ")
        line.append(t("review.blunders", n=acc.blunders), style=LABEL_STYLES["blunder"])
        lines.append(line)
    return Text("\n").join(lines)


def compact_accuracy_text(
    t: Translator, reply: sm.GameAccuracy, name: Callable[[int], str]
) -> Text:
    """The same for many seats, two to a line: ``Name −0.42 1/0`` (the
    points lost per decision, mistakes/blunders, as the legend says)."""
    lines = [
        Text(t("review.game_title", n=reply.hands), style=Style(bold=True)),
        Text(t("review.compact_legend"), style=Style(dim=True)),
    ]
    cells = []
    for seat in reply.seats:
        acc = seat.accuracy
        cell = Text(f"{name(seat.seat)[:10]:<10} −{t.decimal(acc.mean_loss, 2)} ")
        counts = f"{acc.mistakes}/{acc.blunders}"
        style = LABEL_STYLES["blunder"] if acc.blunders else None
        cell.append(f"{counts:<5}", style=style)
        cells.append(cell)
    for at in range(0, len(cells), 2):
        lines.append(Text(" │ ", style=Style(dim=True)).join(cells[at : at + 2]))
    return Text("\n").join(lines)

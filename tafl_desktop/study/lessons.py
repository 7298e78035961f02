"""Interactive lessons: small positions with a task, loaded from data files, checked by the engine.

A lesson is a TOML file in ``resources/lessons/``: an ``id``, a ``family``, an ``order``, a
``title`` and ``[[steps]]``.  Each step names a preset (``variant``) and optional ``options``, a
``position`` and ``to_move`` in the notation ``play --position`` reads, a ``text`` and a ``task``
(see :class:`Task`), and a ``solution`` (one move that does the task).  Texts are tables keyed by
language (``text = { en = "..." }``; English is the fallback) so a translator adds a key and no
code; they may name the sides with the placeholders of :mod:`tafl_desktop.core.side_words`
(``{many}`` for side 0, ``{hunters}`` for side 1), filled with the preset's own side names.

A move is judged by the rules engine alone: an illegal move gets the engine's own reason
(``explain_illegal``), a legal one is accepted when it does the task (any such move, not only the
stored solution), and otherwise the facts the engine reports explain why it does not.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.game import Move, P, Rules
from tafl_desktop.core.marks import N_
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import os_reason
from tafl_desktop.core.side_words import fill

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

#: Task kinds a lesson step may set.
TASK_KINDS = ("capture", "reach", "win", "safe")


class LessonError(ValueError):
    """A lesson file that cannot be used; the message names the file and the fault."""


def chosen_language() -> str:
    """The language the player chose (``tafl_desktop.i18n``), English until one is chosen; a
    lesson is shown in it, so the Learn menu and dialog need not pass it around."""
    from tafl_desktop.i18n import current_language

    return current_language()


def localized(value: object, language: str = "en") -> str:
    """The text of a ``{language: text}`` table in ``language``, English when it lacks one."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return str(value.get(language) or value.get("en") or "")
    return ""


@dataclass(frozen=True)
class Task:
    """What a step asks.  ``capture``: the move takes every piece on ``squares``; ``reach``: the
    piece moved ends on one of ``squares``; ``win``: the move wins at once (``reason`` if given:
    that way); ``safe``: after it the other side has no move that wins at once or takes a piece on
    ``squares`` (the squares a piece stands on after the move)."""

    kind: str
    squares: tuple[str, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class Step:
    variant: str
    position: str
    to_move: str
    text: dict[str, str]
    task: Task
    solution: str
    options: dict[str, Any] = field(default_factory=dict)

    def start(self) -> tuple[Any, Any, Any]:
        """(variant, rules, position) of the step."""
        from tafl_desktop.core.variants import find_variant

        variant = find_variant(self.variant).with_options(self.options)
        rules = variant.make_rules()
        return variant, rules, rules.parse_position(self.position, variant.parse_side(self.to_move))

    def instructions(self, variant: Variant, language: str | None = None) -> str:
        """The step's text in ``language`` (default: the chosen one; English where the file has
        none), in the variant's side names."""
        return fill(_in_language(self.text, language), variant.words)


@dataclass(frozen=True)
class Lesson:
    id: str
    family: str
    order: int
    title: dict[str, str]
    steps: tuple[Step, ...]
    path: str = ""

    def title_text(self, language: str | None = None) -> str:
        """The title in ``language`` (default: the chosen one; English where the file has none)."""
        return _in_language(self.title, language)


def _in_language(table: object, language: str | None) -> str:
    """``table``'s text in ``language`` (default: the chosen one); where the file lacks that
    language, the English text through the catalogue (which may still know it)."""
    lang = language or chosen_language()
    if lang != "en" and isinstance(table, dict) and table.get(lang):
        return str(table[lang])
    from tafl_desktop.i18n import PSEUDO, current_language, pseudo_text

    if lang == PSEUDO or (language is None and current_language() == PSEUDO):
        return pseudo_text(localized(table, "en"))  # the pseudo-locale: the lesson's text went through us
    return _(localized(table, "en"))


class Said(str):
    """An English sentence that keeps its marked template and values, so the window can show it
    in the player's language: ``_(said.template).format(**said.params)``."""

    template: str
    params: dict[str, Any]


def say(template: str, **params: object) -> Said:
    said = Said(template.format(**params))
    said.template, said.params = template, params
    return said


def translated(text: str) -> str:
    """``text`` in the chosen language: a :class:`Said` by its template, any other text whole."""
    from tafl_desktop.i18n import _

    if isinstance(text, Said):
        return _(text.template).format(**text.params)
    return _(text)


@dataclass(frozen=True)
class Verdict:
    """The judgement of a move: ``ok``, a sentence for the player, and the position after a legal move."""

    ok: bool
    message: str
    legal: bool
    position: Any = None
    captures: tuple[int, ...] = ()


def _step(data: object, where: str) -> Step:
    if not isinstance(data, dict):
        raise LessonError(_("{where}: a step must be a table").format(where=where))
    try:
        task = data["task"]
        t = Task(str(task["kind"]), tuple(str(s) for s in task.get("squares", ())), str(task.get("reason", "")))
        if t.kind not in TASK_KINDS:
            raise LessonError(_("{where}: task kind '{kind}' is not one of {kinds}").format(
                where=where, kind=t.kind, kinds=", ".join(TASK_KINDS)))
        return Step(str(data["variant"]), str(data["position"]), str(data["to_move"]), dict(data["text"]), t,
                    str(data["solution"]), dict(data.get("options", {})))
    except (KeyError, TypeError, AttributeError) as exc:
        raise LessonError(_("{where}: missing or malformed {exc}").format(where=where, exc=exc)) from None


def load_lesson(path: str | Path) -> Lesson:
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LessonError(_("cannot read {p}: {why}").format(p=p, why=os_reason(exc))) from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise LessonError(_("{name} is not a lesson file: {exc}").format(name=p.name, exc=exc)) from None
    try:
        steps = tuple(_step(s, f"{p.name} step {i + 1}") for i, s in enumerate(data["steps"]))
        return Lesson(str(data["id"]), str(data["family"]), int(data.get("order", 0)), dict(data["title"]), steps,
                      str(p))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, LessonError):
            raise
        raise LessonError(_("{name}: missing or malformed {exc}").format(name=p.name, exc=exc)) from None


def lessons_dir() -> Path:
    from tafl_desktop.core.paths import resources_dir

    return resources_dir() / "lessons"


def load_lessons(folder: Path | None = None) -> list[Lesson]:
    """Every lesson in the folder, by family (in the families' own order) and order."""
    d = folder or lessons_dir()
    lessons = [load_lesson(p) for p in sorted(d.glob("*.toml"))] if d.is_dir() else []
    from tafl_desktop.core.variants import FAMILIES

    rank = {name: i for i, name in enumerate(FAMILIES)}
    return sorted(lessons, key=lambda lesson: (rank.get(lesson.family, len(rank)), lesson.order, lesson.id))


def _names(rules: Rules[P], squares: Iterable[int]) -> str:
    return ", ".join(rules.geometry.name(s) for s in squares)


def judge(step: Step, move: Move) -> Verdict:
    """Judge ``move`` in ``step``'s position against its task, by the rules engine."""
    variant, rules, pos = step.start()
    if move not in rules.legal_moves(pos):
        return Verdict(False, say(N_("That move is not allowed: {why}."), why=rules.explain_illegal(pos, move)),
                       False)
    after, caps = rules.play(pos, move)
    g = rules.geometry
    task = step.task
    out = rules.outcome(after)
    mover = rules.side_to_move(pos)
    if out is not None and out.winner is not None and out.winner != mover:
        return Verdict(False, say(N_("That move loses: {result}"), result=out.describe(variant)), True, after, caps)
    own = set(caps) & ({m[0] for m in rules.legal_moves(pos)} | {move[-1]})
    if own and not task.kind == "win":
        return Verdict(False, say(N_("That move costs you your own piece on {squares}."),
            squares=_names(rules, sorted(own))), True, after, caps)
    if task.kind == "capture":
        want = {g.parse_square(s) for s in task.squares}
        if want <= set(caps):
            return Verdict(True, say(N_("Well done: captured {squares}."), squares=_names(rules, sorted(want))),
                           True, after, caps)
        if not caps:
            text = (N_("That move captures nothing: the piece on {squares} still stands.") if len(task.squares) == 1
                    else N_("That move captures nothing: the pieces on {squares} still stand."))
            return Verdict(False, say(text, squares=", ".join(task.squares)), True, after, caps)
        return Verdict(False, say(N_("That captures {got}, but not {squares}."),
            got=_names(rules, caps), squares=", ".join(task.squares)), True, after, caps)
    if task.kind == "reach":
        want = {g.parse_square(s) for s in task.squares}
        if move[-1] in want:
            return Verdict(True, N_("Well done."), True, after, caps)
        return Verdict(False, say(N_("That is a legal move, but the task is to reach {squares}."),
            squares=" or ".join(task.squares)), True, after, caps)
    if task.kind == "win":
        if out is not None and out.winner == mover and (not task.reason or out.reason == task.reason):
            return Verdict(True, say(N_("Well done: {result}"), result=out.describe(variant)), True, after, caps)
        if out is not None:
            return Verdict(False, say(N_("That ends the game, but not as asked: {result}"),
                result=out.describe(variant)), True, after, caps)
        return Verdict(False, _("That is a legal move, but the game goes on: it does not win yet."), True, after,
                       caps)
    # safe: no reply of the other side wins at once or takes a piece on the named squares
    if out is not None:
        if out.winner == mover:
            return Verdict(True, say(N_("Well done: {result}"), result=out.describe(variant)), True, after, caps)
        return Verdict(False, out.describe(variant), True, after, caps)
    guard = {g.parse_square(s) for s in task.squares}
    for reply in rules.legal_moves(after):
        nxt, taken = rules.play(after, reply)
        reply_out = rules.outcome(nxt)
        if reply_out is not None and reply_out.winner is not None and reply_out.winner != mover:
            return Verdict(False, say(N_("Not safe: the answer {reply} would end the game. {result}"),
                reply=rules.move_text(reply), result=reply_out.describe(variant)), True, after, caps)
        lost = guard & set(taken)
        if lost:
            return Verdict(False, say(N_("Not safe: the answer {reply} would capture {squares}."),
                reply=rules.move_text(reply), squares=_names(rules, sorted(lost))), True, after, caps)
    return Verdict(True, _("Well done: nothing can be taken and the game cannot be lost next move."), True, after,
                   caps)


def check_lesson(lesson: Lesson) -> list[str]:
    """Faults of a lesson: steps whose position or solution cannot be read, or whose solution does not do the task."""
    faults = []
    for i, step in enumerate(lesson.steps, 1):
        try:
            _variant, rules, pos = step.start()
            move = rules.parse_move(pos, step.solution)
        except (ValueError, KeyError) as exc:
            faults.append(f"{lesson.id} step {i}: {exc}")
            continue
        verdict = judge(step, move)
        if not verdict.ok:
            faults.append(f"{lesson.id} step {i}: the solution {step.solution} fails: {verdict.message}")
    return faults

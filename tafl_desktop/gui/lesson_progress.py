"""Lesson progress, kept in the user's settings (QSettings): the steps done of each lesson, so a
lesson reopens at its first step not yet done, the Learn menu ticks finished lessons and offers
to continue with the first unfinished one, and a finished lesson leads to the next."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings


class LessonProgress:
    """Steps done per lesson id."""

    def __init__(self) -> None:
        self.settings = QSettings()

    def done(self, lesson_id: str) -> set[int]:
        value = str(self.settings.value(f"lessons/{lesson_id}/done", "") or "")
        return {int(s) for s in value.split(",") if s.isdigit()}

    def mark(self, lesson_id: str, index: int) -> None:
        steps = self.done(lesson_id) | {int(index)}
        self.settings.setValue(f"lessons/{lesson_id}/done", ",".join(str(i) for i in sorted(steps)))
        self.settings.sync()

    def finished(self, lesson: Any) -> bool:
        return self.done(lesson.id) >= set(range(len(lesson.steps)))

    def resume_at(self, lesson: Any) -> int:
        """The first step not done yet (the first step of a finished lesson, to do it again)."""
        done = self.done(lesson.id)
        return next((i for i in range(len(lesson.steps)) if i not in done), 0)

    def reset(self, lesson_id: str) -> None:
        self.settings.remove(f"lessons/{lesson_id}")
        self.settings.sync()


def next_lesson(lessons: list[Any], lesson: Any) -> Any | None:
    """The lesson after ``lesson`` in the menu's order (families in order, then each lesson's order)."""
    ids = [x.id for x in lessons]
    if lesson.id not in ids:
        return None
    i = ids.index(lesson.id)
    return lessons[i + 1] if i + 1 < len(lessons) else None


def first_unfinished(lessons: list[Any], progress: LessonProgress) -> Any | None:
    """The lesson to continue with: the first started and unfinished one, else the first not finished."""
    started = [x for x in lessons if progress.done(x.id) and not progress.finished(x)]
    if started:
        return started[0]
    return next((x for x in lessons if not progress.finished(x)), None)

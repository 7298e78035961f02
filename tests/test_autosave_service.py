"""The autosave as a headless service of the game session (issue 41, item 3): it runs with Qt
unimportable, in a process of its own, on real files.

What it promises (the README's "nothing is lost"): after every move the unfinished game is in the
file, an undo back to the start removes it, a normal close tags the record ``exit = "normal"``, a
file that cannot be written is told in one sentence (never a traceback) and the game goes on.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent('''
    import json, sys
    sys.modules["PySide6"] = None  # any import of Qt now fails: the service must not need it
    from pathlib import Path

    from tafl_desktop.core.record import load_game
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.session.autosave import CLOSED_NORMALLY, CLOSED_TAG, Autosave
    from tafl_desktop.session.session import GameSession
    from tafl_desktop.session.source import GameSource

    folder = Path(sys.argv[1])
    out = {}
    session = GameSession(GameSource.new(find_variant("brandubh")))
    off = Autosave(session)  # no slot chosen yet: nothing is written
    path = folder / "slots" / "autosave.tafl.json"
    service = Autosave(session, str(path))
    problems = []
    service.on_problem = lambda reason, closing: problems.append((reason, closing))
    out["before_a_move"] = path.exists()
    assert session.play_at_end(session.rules.parse_move(session.game.position, "d6-b6"))
    out["after_a_move"] = load_game(str(path)).move_texts() if path.exists() else None
    assert session.play_at_end(session.rules.parse_move(session.game.position, "c4-c6"))
    out["after_two"] = load_game(str(path)).move_texts()
    service.now(closing=True)
    out["closing_tag"] = json.loads(path.read_text(encoding="utf-8")).get("tags", {}).get(CLOSED_TAG)
    out["closed_normally"] = CLOSED_NORMALLY
    session.undo()
    session.undo()
    out["after_undo_to_start"] = path.exists()
    out["off_path"] = off.now()
    blocker = folder / "blocked"
    blocker.write_text("a file, not a folder", encoding="utf-8")
    service.path = str(blocker / "autosave.tafl.json")
    assert session.play_at_end(session.rules.parse_move(session.game.position, "d6-b6"))
    out["problems"] = problems
    out["game_goes_on"] = session.game.move_texts()
    out["qt_loaded"] = sorted(m for m in sys.modules if m.startswith("PySide6") and sys.modules[m] is not None)
    print(json.dumps(out))
''')


def test_the_autosave_keeps_every_move_without_qt(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["before_a_move"] is False  # an empty new game writes nothing
    assert out["after_a_move"] == ["d6-b6"]  # written right after the move, not later
    assert out["after_two"] == ["d6-b6", "c4-c6"]
    assert out["closing_tag"] == out["closed_normally"] == "normal"
    assert out["after_undo_to_start"] is False  # nothing left to restore: the file goes
    assert out["off_path"] is None
    assert out["problems"] == [["a file stands where its folder should be", False]]
    assert out["game_goes_on"] == ["d6-b6"]
    assert out["qt_loaded"] == []

"""Clocks, resignation and draws through the real window (offscreen): flag fall ends the game
with its reason, the increment, pause, the computer's think budget, the clocks and the ending
kept in the saved record and restored, resign, draw offers (between people, and against the
computer, which answers from its evaluation) and the repetition claim.  Time is a fake source
handed to the window's clock, so nothing waits."""

from __future__ import annotations

import json

from tafl_desktop.core.clock import TimeControl
from tafl_desktop.core.game import Side
from tafl_desktop.core.record import load_game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.session.engine import EngineHub, IdleEngine
from tafl_desktop.session.players import COMPUTER, HUMANS, PlayerSpec


class FakeTime:
    def __init__(self) -> None:
        self.t = 500.0

    def __call__(self) -> float:
        return self.t


def _clocked(window, control: str, players=HUMANS, variant: str = "brandubh") -> FakeTime:
    t = FakeTime()
    window.clock_driver.now = t
    window.start_game(find_variant(variant), players, time_control=TimeControl.parse(control))
    return t


def _play(window, text: str) -> None:
    c = window.controller
    assert c.play_move(c.session.rules.parse_move(c.session.game.position, text))


def test_flag_fall_ends_the_game_with_the_reason(qtbot, make_window, dialogs_recorder):
    w = make_window("brandubh")
    t = _clocked(w, "60")
    assert w.clock_driver.panel.isVisible()
    assert w.clock_driver.panel.times[0].text() == "1:00"
    t.t += 61
    w.clock_driver.tick()
    out = w.session.game.outcome
    assert out is not None and out.winner == Side.DEFENDERS and out.reason == "time"
    assert w.session.describe(out) == "Defenders win: the attackers ran out of time."
    qtbot.waitUntil(lambda: bool(dialogs_recorder.game_over))
    assert dialogs_recorder.game_over[-1][0] == "Defenders win"
    assert w.clock_driver.panel.notes[0].text() == "time is up"


def test_increment_after_each_move_and_pause_stops_the_clock(qtbot, make_window):
    w = make_window("brandubh")
    t = _clocked(w, "60 5i")
    clock = w.clock_driver.clock
    t.t += 2
    _play(w, "d6-b6")
    assert clock.shown(0)[0] == 63_000
    assert clock.running == 1
    assert w.act_pause.isEnabled()  # a clocked game between two people can be paused
    w.act_pause.trigger()
    assert w.status_text().startswith("Paused: the clocks are stopped.")
    t.t += 100
    assert clock.shown(1)[0] == 60_000 and clock.running is None
    w.act_pause.trigger()
    t.t += 4
    assert clock.shown(1)[0] == 56_000


def test_clocks_are_saved_in_the_record_and_restored(qtbot, make_window, tmp_path):
    w = make_window("brandubh")
    t = _clocked(w, "300 30/3 2i")
    t.t += 10
    _play(w, "d6-b6")
    t.t += 7
    path = tmp_path / "clocked.tafl.json"
    assert w.files.save_game_to(str(path))
    tags = json.loads(path.read_text())["tags"]
    assert tags["time-control"] == "300 30/3 2i"
    assert tags["time-remaining"] == "292000 3 30000 293000 3 30000 -1"
    other = make_window("tablut")
    t2 = FakeTime()
    other.clock_driver.now = t2
    assert other.files.open_game(str(path))
    clock = other.clock_driver.clock
    assert clock is not None and clock.control == TimeControl.parse("300 30/3 2i")
    assert clock.shown(0)[0] == 292_000 and clock.shown(1)[0] == 293_000
    assert clock.running == 1  # the side to move's clock runs on
    t2.t += 3
    assert clock.shown(1)[0] == 290_000


def test_a_damaged_clock_tag_opens_the_game_without_clocks(qtbot, make_window, tmp_path):
    w = make_window("brandubh")
    _clocked(w, "60")
    path = tmp_path / "bad.tafl.json"
    assert w.files.save_game_to(str(path))
    data = json.loads(path.read_text())
    data["tags"]["time-remaining"] = "lots of time"
    path.write_text(json.dumps(data))
    assert w.files.open_game(str(path))
    assert w.clock_driver.clock is None and not w.clock_driver.panel.isVisible()
    qtbot.waitUntil(lambda: "without clocks" in w.status_text())


def test_the_computer_thinks_within_its_clock(qtbot, make_window):
    limits: list[float | None] = []
    shares: list[float | None] = []

    class Recording(IdleEngine):
        def start(self, request):
            limits.append(request.limits.hard)
            shares.append(request.limits.soft)
            request.on_move(request.game.legal_moves()[0])

    w = make_window("brandubh", engines=EngineHub(computer=Recording))
    _clocked(w, "30", players=(PlayerSpec(), PlayerSpec(COMPUTER, "expert")))
    _play(w, "d6-b6")
    qtbot.waitUntil(lambda: len(w.session.game.plies) == 2)
    from tafl_desktop.ai.levels import get_level

    assert limits and limits[0] is not None and shares[0] is not None
    assert shares[0] <= 30 / 30 < get_level("expert").time  # its share: a thirtieth of the time left
    # at a critical moment it may think longer, never past a quarter of what is left
    assert shares[0] < limits[0] <= 30 / 4


def test_resign_is_in_the_menu_and_the_record(qtbot, make_window, dialogs_recorder, tmp_path):
    w = make_window("fox_geese_13")
    assert w.game_end.act_resign in w.game_menu.actions()
    w.game_end.act_resign.trigger()  # the geese (side to move between two people) resign
    out = w.session.game.outcome
    assert out.reason == "resigned" and out.winner == Side(1)
    assert w.session.describe(out) == "Fox wins: the geese resigned."
    assert not w.game_end.act_resign.isEnabled()
    path = tmp_path / "resigned.tafl.json"
    assert w.files.save_game_to(str(path))
    back = load_game(path)
    assert back.outcome == out
    w.session.undo()  # nothing to take back: the resignation stays
    assert w.session.game.outcome == out


def test_draw_offer_between_two_people(qtbot, make_window, dialogs_recorder):
    w = make_window("brandubh")
    dialogs_recorder.confirm_answer = False
    w.game_end.act_offer.trigger()
    assert w.session.game.outcome is None
    assert w.status_text() == "The defenders decline the draw: the game goes on."
    dialogs_recorder.confirm_answer = True
    w.game_end.act_offer.trigger()
    assert w.session.game.outcome.reason == "draw_agreed"


class FakeAnalyst:
    def __init__(self, chance: float) -> None:
        self.chance = chance

    def evaluate(self, game, on_result):
        class R:
            error = ""
            defenders_win_chance = self.chance

        on_result(R())


def test_the_computer_accepts_a_draw_only_when_its_evaluation_says_so(qtbot, make_window, monkeypatch):
    w = make_window("brandubh", engines=EngineHub(computer=IdleEngine))
    w.start_game(find_variant("brandubh"), (PlayerSpec(), PlayerSpec(COMPUTER, "easy")))
    monkeypatch.setattr(w, "ensure_analyst", lambda: FakeAnalyst(0.8))  # the defenders (computer) are better
    w.game_end.act_offer.trigger()
    assert w.session.game.outcome is None
    assert "declines the draw" in w.status_text()
    monkeypatch.setattr(w, "ensure_analyst", lambda: FakeAnalyst(0.3))
    w.game_end.act_offer.trigger()
    assert w.session.game.outcome.reason == "draw_agreed"


def test_claim_a_draw_after_threefold_repetition_where_repetition_has_no_consequence(qtbot, make_window):
    w = make_window("brandubh", repetition="allowed")
    assert not w.game_end.act_claim.isEnabled()
    for _ in range(2):
        for text in ("d6-b6", "c4-c5", "b6-d6", "c5-c4"):
            _play(w, text)
    assert w.game_end.act_claim.isEnabled()
    w.game_end.act_claim.trigger()
    assert w.session.game.outcome.reason == "draw_claimed"
    w2 = make_window("brandubh", repetition="draw")  # the rules end it themselves: no claim
    for _ in range(2):
        for text in ("d6-b6", "c4-c5", "b6-d6", "c5-c4"):
            w2.controller.play_move(w2.session.rules.parse_move(w2.session.game.position, text))
    assert w2.session.game.outcome.reason == "repetition"
    assert not w2.game_end.act_claim.isEnabled()

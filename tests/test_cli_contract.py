"""The command-line contracts of issue 2: command names, JSON keys, exit codes, one-line errors."""

from __future__ import annotations

import json

import pytest

from tafl_desktop.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_variants_lists_every_required_preset(capsys):
    code, out, _ = run(capsys, "variants")
    assert code == 0
    ids = out.split()
    for required in ("brandubh", "ard_ri", "mini_tablut", "tablut", "single_step", "tawlbwrdd", "copenhagen",
                     "fetlar", "large_hnefatafl", "alea_evangelii"):
        assert required in ids


def test_variants_json_has_id_name_family_size(capsys):
    code, out, _ = run(capsys, "variants", "--json")
    rows = json.loads(out)
    cop = next(r for r in rows if r["id"] == "copenhagen")
    assert cop == {"id": "copenhagen", "name": "Copenhagen Hnefatafl", "family": "tafl", "size": "11x11"}


def test_perft_copenhagen_matches_the_peer_engine(capsys):
    # pyhnefatafl 0.3.2 (Copenhagen start, attackers first) counts 116, 6,788 and 806,344 leaves;
    # the issue quotes 806,344 for perft(3).
    assert run(capsys, "perft", "copenhagen", "1")[1].strip() == "116"
    assert run(capsys, "perft", "copenhagen", "2")[1].strip() == "6788"


def test_play_json_fields_and_captures(capsys):
    # Brandubh: d1-c1 then the defender d3 slides to a3; nothing is captured.
    code, out, _ = run(capsys, "play", "brandubh", "--moves", "d1-c1 d3-a3", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"position", "to_move", "result", "reason", "captures"}
    assert data["position"] == "/3t3/3t3/3T3/ttTKTtt/T6/3t3/2t4/"
    assert data["to_move"] == "attackers" and data["result"] is None and data["captures"] == [[], []]


def test_play_with_position_and_toggle_edge_escape(capsys):
    # source 003: with 'edge win' the king wins on reaching an edge square
    pos = "/9/9/9/9/4K4/9/9/9/t8/"  # a lone attacker on a1 keeps the attackers able to move
    code, out, _ = run(capsys, "play", "tablut", "--position", pos, "--to-move", "defenders",
                       "--moves", "e5-e9", "--json")
    data = json.loads(out)
    assert (data["result"], data["reason"]) == ("defenders", "king_escaped")
    # Tablut has no corners to escape to (so escape=corner is refused there); Copenhagen has
    pos11 = "/11/11/11/11/11/5K5/11/11/11/11/1t9/"
    code, out, _ = run(capsys, "play", "copenhagen", "--position", pos11, "--to-move", "defenders",
                       "--moves", "f6-f11", "--json")
    assert json.loads(out)["result"] is None
    code, out, _ = run(capsys, "play", "copenhagen", "--position", pos11, "--to-move", "defenders",
                       "--set", "escape=edge", "--moves", "f6-f11", "--json")
    assert json.loads(out)["result"] == "defenders"


def test_illegal_move_exits_2_naming_move_and_reason(capsys):
    code, out, err = run(capsys, "play", "brandubh", "--moves", "d1-c1 d5-d6")
    assert code == 2
    assert "d5-d6" in err and "occupied" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_diagonal_move_reason(capsys):
    code, _, err = run(capsys, "play", "copenhagen", "--moves", "d1-c2")
    assert code == 2 and "straight" in err


def test_errors_are_one_line(capsys):
    for argv in (("perft", "nosuch", "2"), ("play", "copenhagen", "--set", "escape=moon"),
                 ("play", "copenhagen", "--set", "nosuch=1"), ("replay", "/nonexistent/game.json"),
                 ("play", "copenhagen", "--position", "/3t3/", "--moves", "")):
        code, out, err = run(capsys, *argv)
        assert code != 0, argv
        assert err.startswith("tafl-desktop: ") and err.count("\n") == 1, (argv, err)


def test_replay_json_round_trip(tmp_path, capsys):
    from tafl_desktop.core.game import Game
    from tafl_desktop.core.record import save_game
    from tafl_desktop.core.variants import find_variant

    rules = find_variant("brandubh").make_rules()
    g = Game(rules)
    for m in ("d1-c1", "d3-a3"):
        g.play_text(m)
    f = tmp_path / "g.json"
    save_game(g, f)
    code, out, _ = run(capsys, "replay", str(f), "--json")
    data = json.loads(out)
    assert code == 0 and data["moves"] == ["d1-c1", "d3-a3"]
    assert data["position"] == "/3t3/3t3/3T3/ttTKTtt/T6/3t3/2t4/"


@pytest.mark.parametrize("text", ["{not json", '{"format": "other"}', "[]"])
def test_replay_rejects_bad_records(tmp_path, capsys, text):
    f = tmp_path / "bad.json"
    f.write_text(text)
    code, _, err = run(capsys, "replay", str(f))
    assert code != 0 and "bad.json" in err and err.count("\n") == 1


def test_rules_text_follows_the_toggles(capsys):
    # a changed toggle changes the sentence (the same text feeds the rules viewer and the rule sheet)
    _, corner, _ = run(capsys, "rules", "copenhagen")
    _, edge, _ = run(capsys, "rules", "copenhagen", "--set", "escape=edge")
    assert "reaches a corner square" in corner and "reaches a corner square" not in edge
    assert "reaches any square on the edge" in edge
    # a toggle that does not apply (shield-wall details without shield walls) is left out
    _, no_wall, _ = run(capsys, "rules", "copenhagen", "--set", "shield_wall=false")
    assert "flanking move" in corner and "flanking move" not in no_wall


# ------------------------------------------------------------------ the window is the default command
@pytest.fixture
def gui_calls(monkeypatch):
    """Stand in for the window: record what the gui command would open, open nothing."""
    from tafl_desktop.gui import app

    calls: list[tuple[str | None, str | None]] = []

    def fake_run_app(file=None, variant=None):
        calls.append((file, variant))
        return 0

    monkeypatch.setattr(app, "run_app", fake_run_app)
    return calls


@pytest.mark.parametrize(("argv", "opened"), [
    ([], (None, None)),
    (["game.tafl.json"], ("game.tafl.json", None)),
    (["saves/game"], ("saves/game", None)),
    (["--variant", "brandubh"], (None, "brandubh")),
    (["--variant=tablut"], (None, "tablut")),
    (["game.json", "--variant", "brandubh"], ("game.json", "brandubh")),
    (["gui", "game.tafl.json"], ("game.tafl.json", None)),
    (["gui", "--variant", "brandubh"], (None, "brandubh")),
])
def test_a_bare_file_or_variant_opens_the_window_like_gui(gui_calls, argv, opened):
    assert main(argv) == 0
    assert gui_calls == [opened]


def test_an_existing_file_without_a_suffix_opens_too(gui_calls, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lastgame").write_text("{}")
    assert main(["lastgame"]) == 0 and gui_calls == [("lastgame", None)]


def test_other_commands_and_program_options_still_work(gui_calls, capsys, monkeypatch):
    assert run(capsys, "variants")[0] == 0
    assert run(capsys, "rules", "brandubh")[1].startswith("Brandubh")
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("tafl-desktop ")
    import tafl_desktop.selftest

    ran: list[bool] = []
    monkeypatch.setattr(tafl_desktop.selftest, "run_self_test", lambda: ran.append(True) or 0)
    assert main(["--self-test"]) == 0 and ran == [True]
    assert gui_calls == []


def test_a_mistyped_command_is_still_an_error_not_a_window(gui_calls, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["varients"])
    assert stop.value.code == 2 and "invalid choice: 'varients'" in capsys.readouterr().err
    assert gui_calls == []


def test_print_help_says_square_mm_is_the_point_spacing_on_point_boards(capsys):
    """`print --help` must say what --square-mm means where there are no squares, and that must be
    what the printer does: on the cross neighbouring points are that far apart, on the Dablot lattice
    neighbouring grid lines (a centre point sits half-way, 1/sqrt(2) of it from a corner point)."""
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.printing.board_draw import graph_point

    with pytest.raises(SystemExit) as stop:
        main(["print", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert stop.value.code == 0
    assert "point spacing" in out and "Fox games' cross" in out and "Dablot lattice" in out

    def apart(vid: str, a: str, b: str, square: float = 20.0) -> float:
        g = find_variant(vid).geometry
        (x1, y1), (x2, y2) = (graph_point(g, g.parse_square(p), square, 0.0, 0.0) for p in (a, b))
        return round(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5, 3)

    assert apart("fox_geese_13", "d4", "d5") == apart("halatafl", "c1", "d1") == 20.0
    assert apart("dablot", "a1", "a3") == apart("dablot", "a1", "b1") == 20.0
    assert apart("dablot", "a1", "a2") == round(20.0 / 2 ** 0.5, 3)

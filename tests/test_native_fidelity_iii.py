"""The native rules agree with the core on every rule issue 32 changed (issue 31's checks).

Issue 32 ("Rules and exchange fidelity III") changed the core's Tafl rules in five places: exit
forts count the attackers left (item 1), the defenders' no-repeat rule compares boards only
(item 2), camps play as OpenTafl plays them (item 4: ``camps_hostile = always``,
``camp_to_camp``), a hostile corner held by a defender stays hostile (item 10), and a toggle that
does not apply plays as its default.  Each is checked here native against core: perft counts,
and random games compared ply by ply (same legal-move set, captures, position and outcome, see
``tests/native_differential.py``) from positions built to reach the rule, with a count that
shows the rule was exercised.  The rule itself is pinned from its source in the Tafl rule tests
(``test_tafl_exit_forts``, ``test_tafl_toggles_*``, ``test_interop_rules_string``), which run on
both engines.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from tafl_desktop import native
from tafl_desktop.core.game import Game, Outcome, Side
from tafl_desktop.core.playout import perft
from tafl_desktop.core.rules_string import variant_from_rules_string
from tafl_desktop.core.variants import presets

pytestmark = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.unavailable_reason()}")


def engines(variant):
    """The core's rules and the native rules of one variant."""
    from tafl_desktop.native.rules import NativeTaflRules

    return variant.make_rules(), NativeTaflRules(variant)


def perft_both(variant, setup: str | None, side: Side | None, depth: int) -> tuple[int, int]:
    core, nat = engines(variant)
    pos = core.initial_position() if setup is None else core.parse_position(setup, side)
    return perft(core, pos, depth), nat.perft(pos, depth)


# -- item 1: a fort against a lone attacker ------------------------------------------------------------
#: Issue 32 item 1: i7 the only attacker; j6-k6 puts the king on the edge inside his fort.
LONE = "/11/11/11/11/8tTT/8TK1/9TT/11/11/11/11/"
#: The same shape with a second attacker on b2: now i6 can be taken between i7 and i5.
TWO = "/11/11/11/11/8tTT/8TK1/9TT/11/11/1t9/11/"


def test_the_issue_fort_against_a_lone_attacker_is_won_on_both_engines():
    """Copenhagen rules, 'Exit forts': the defenders win when 'it is impossible for the attackers to break
    the fort' (hnefatafl.org counts the attackers left the same way): j6-k6 wins with i7 alone, not with
    a second attacker on b2; perft from both positions agrees."""
    variant = presets()["copenhagen"]
    for rules in engines(variant):
        for setup, result in ((LONE, Outcome(Side.DEFENDERS, "edge_fort")), (TWO, None)):
            pos = rules.parse_position(setup, Side.DEFENDERS)
            after, _caps = rules.play(pos, rules.parse_move(pos, "j6-k6"))
            assert after.result == result, (type(rules).__name__, setup)
    for setup in (LONE, TWO):
        core, nat = perft_both(variant, setup, Side.DEFENDERS, 3)
        assert core == nat > 0, setup


def few_attacker_fort(rng: random.Random, rules, attackers: int):
    """A position with the king on the edge, defenders around him and ``attackers`` attackers
    anywhere else (None when the rules refuse it)."""
    import native_differential

    n, g = rules.N, rules.geometry
    king = rng.choice([s for s in range(n) if g.is_edge(s) and s not in g.corner_squares])
    kf, kr = g.file_rank(king)
    near = [s for s in range(n) if s != king and s not in g.corner_squares
            and abs(g.file_rank(s)[0] - kf) + abs(g.file_rank(s)[1] - kr) <= 2]
    dfn = rng.sample(near, min(len(near), rng.randint(3, 7)))
    far = [s for s in range(n) if s != king and s not in dfn and s not in g.corner_squares]
    cells = {s: "t" for s in rng.sample(far, attackers)} | {s: "T" for s in dfn} | {king: "K"}
    try:
        return rules.parse_position(native_differential.setup_text(rules.W, rules.H, cells),
                                    rng.choice([Side.ATTACKERS, Side.DEFENDERS]))
    except ValueError:
        return None


def test_random_forts_against_one_or_two_attackers_agree_ply_by_ply():
    """Forts where the material decides (one or two attackers left), on three boards with exit forts:
    every ply agrees, and forts won against a lone attacker do occur."""
    import native_differential

    rng = random.Random(3201)
    tally = native_differential.Tally()
    lone_forts = 0
    for i in range(120):
        vid = ("copenhagen", "fetlar", "brandubh")[i % 3]
        variant = presets()[vid].with_options({"edge_forts": True})
        core, nat = engines(variant)
        start = few_attacker_fort(rng, core, 1 + i % 2)
        if start is None:
            continue

        def observe(pos, _moves, move, _caps, core=core):
            nonlocal lone_forts
            after = core.play(pos, move)[0]
            if after.result is not None and after.result.reason == "edge_fort" and after.att.bit_count() == 1:
                lone_forts += 1

        native_differential.compare_game(core, nat, start, rng, 60, tally, observe)
    assert tally.games > 75 and tally.plies > 2_000, tally  # 115 games, 3,926 plies, 18 lone forts
    assert lone_forts >= 5, (lone_forts, tally)


# -- item 2: the defenders may not repeat a board ----------------------------------------------------------
#: Issue 32 item 2: Copenhagen's board less its corner attackers, defenders to move.
NO_REPEAT_START = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"


def test_the_issue_repeat_of_a_board_is_refused_on_both_engines():
    """hnefatafl.org: "If the defender would repeat a board position, the move is not allowed" (the board,
    not the side to move).  After f4-e4 f2-e2 e4-g4 e2-f2, g4-f4 recreates the start board (which had the
    defenders to move): both engines refuse it, with the same legal moves at every ply of the line."""
    variant = presets()["copenhagen"].with_options({"repetition": "defenders_no_repeat"})
    games = []
    for rules in engines(variant):
        game = Game(rules, rules.parse_position(NO_REPEAT_START, Side.DEFENDERS))
        seen = [sorted(game.legal_moves())]
        for text in ("f4-e4", "f2-e2", "e4-g4", "e2-f2"):
            game.play_text(text)
            seen.append(sorted(game.legal_moves()))
        last = rules.parse_move(game.position, "g4-f4")
        assert game.check(last) is not None
        assert last not in game.legal_moves()
        games.append(seen)
    assert games[0] == games[1]


#: Brandubh, defenders to move: a1 empty, f7 a defender; few pieces, so the core's perft 5 is quick.
SMALL_NO_REPEAT = "/7/4TTt/6T/2K3T/1T5/7/7/"


def test_perft_5_from_a_defenders_move_leaves_out_only_board_repeats_on_both_engines():
    """With the defenders to move at the root, a defenders' move at ply 5 can recreate only the root's board,
    and the root had the other side to move: a rule comparing whole positions would forbid nothing here, the
    board rule (hnefatafl.org) forbids those moves.  Native and core count the same, and fewer than with
    repetition allowed."""
    base = presets()["brandubh"]
    rule, allowed = (perft_both(base.with_options({"repetition": r}), SMALL_NO_REPEAT, Side.DEFENDERS, 5)
                     for r in ("defenders_no_repeat", "allowed"))
    assert rule[0] == rule[1]
    assert allowed[0] == allowed[1]
    assert rule[0] < allowed[0]


def test_random_games_under_the_no_repeat_rule_offer_the_same_moves_on_both_engines():
    """Games under defenders_no_repeat played through :class:`Game` (which keeps the boards of the game) on
    both engines from sparse positions, where boards recur: the same allowed moves at every ply, the same
    outcome, and defenders' moves refused as repeats do occur."""
    import native_differential

    rng = random.Random(3202)
    refused = plies = 0
    for i in range(40):
        variant = presets()[("brandubh", "copenhagen")[i % 2]].with_options({"repetition": "defenders_no_repeat"})
        core, nat = engines(variant)
        start = native_differential.random_sparse_position(rng, core)
        if start is None or core.outcome(start) is not None:
            continue
        games = Game(core, start), Game(nat, start)
        for _ in range(150):
            allowed = sorted(games[0].legal_moves())
            assert sorted(games[1].legal_moves()) == allowed, core.position_text(games[0].position)
            assert games[1].outcome == games[0].outcome
            if games[0].outcome is not None or not allowed:
                break
            refused += len(core.legal_moves(games[0].position)) - len(allowed)
            move = rng.choice(allowed)
            for game in games:
                game.play(move)
            plies += 1
    assert plies > 1_500, plies
    assert refused > 20, refused


# -- item 4: camps as OpenTafl plays them --------------------------------------------------------------
#: OpenTafl's built-in Foteviken Tablut as its RulesSerializer dumps it (tafl-rules.md 2.2; the same string
#: as tests/test_interop_rules_string.py): camps crossed by nobody, camp to camp allowed (aforre empty).
OT_FOTEVIKEN = ("dim:9 name:Foteviken_Tablut esc:e atkf:y nj:n cor: afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,"
                "f9,e8, cenp:tcnkTCNK aforp:tcnkTCNK cens: cenh: cenhe:K aforh:K cenre: aforre: "
                "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/")


def camp_boards():
    return {"tablut_camps": presets()["tablut_camps"], "tablut_competition": presets()["tablut_competition"],
            "foteviken": variant_from_rules_string(OT_FOTEVIKEN)}


def test_foteviken_perft_3_is_opentafls_count_on_both_engines():
    """OpenTafl v0.4.8.0b's own generator counts 337,856 leaves at depth 3 (opentafl-semantics.md)."""
    assert perft_both(variant_from_rules_string(OT_FOTEVIKEN), None, None, 3) == (337_856, 337_856)


CAMP_COMBINATIONS = [dict(zip(("camps_hostile", "camp_reentry", "camp_to_camp", "camp_crossing"), c, strict=True))
                     for c in product(("none", "defenders", "all", "always"), (False, True), (False, True),
                                      ("nobody", "attackers", "everyone"))]


@pytest.mark.parametrize("board", ["tablut_camps", "tablut_competition", "foteviken"])
def test_perft_3_of_every_camp_combination_is_the_cores(board):
    """Every combination of the four camp options (tafl-rules.md 2.2 and 2.3: source 000, Ashton Tablut,
    OpenTafl's aforh and aforre), perft 3 native against the core, live."""
    variant = camp_boards()[board]
    counts = set()
    for combo in CAMP_COMBINATIONS:
        core, nat = perft_both(variant.with_options(combo), None, None, 3)
        assert core == nat, (board, combo)
        counts.add(core)
    assert len(counts) >= 4, counts  # the options change the tree, so the comparison has teeth


def camp_events(rules):
    """An observer for :func:`native_differential.compare_game` that counts attackers taken against a
    camp an attacker stands on and against an empty camp, and legal moves from one camp to another
    camp (the rules' camp groups)."""
    g = rules.geometry
    groups = rules.camp_group
    counts = {"occupied_camp_capture": 0, "empty_camp_capture_of_attacker": 0, "camp_to_camp_move": 0}

    def observe(pos, moves, move, caps):
        counts["camp_to_camp_move"] += sum(1 for a, b in moves if a in groups and b in groups
                                           and groups[a] != groups[b])
        tf, tr = g.file_rank(move[1])
        for c in caps:
            cf, cr = g.file_rank(c)
            pf, pr = 2 * cf - tf, 2 * cr - tr
            if not (0 <= pf < rules.W and 0 <= pr < rules.H):
                continue
            partner = g.index(pf, pr)
            if partner not in groups:
                continue
            if not pos.att >> c & 1:
                continue  # a defender taken against a camp: hostile to defenders under every value but "none"
            if pos.att >> partner & 1:
                counts["occupied_camp_capture"] += 1
            elif not (pos.dfn >> partner & 1) and partner != pos.king:
                counts["empty_camp_capture_of_attacker"] += 1

    return counts, observe


@pytest.mark.parametrize(("hostile", "to_camp"), list(product(("none", "defenders", "all", "always"), (False, True))))
def test_random_games_under_each_camp_rule_agree_and_exercise_it(hostile, to_camp):
    """Random games on the two camp presets and Foteviken under each camps_hostile value, with and without
    camp_to_camp: every ply agrees, and what the option allows happens (captures against a camp an attacker
    holds only under "always", attackers taken against an empty camp only under "all" and "always", moves
    from camp to camp only with camp_to_camp) while what it forbids never does."""
    import native_differential

    rng = random.Random(f"{hostile}{to_camp}")
    tally = native_differential.Tally()
    totals = dict.fromkeys(("occupied_camp_capture", "empty_camp_capture_of_attacker", "camp_to_camp_move"), 0)
    for i in range(24):
        variant = list(camp_boards().values())[i % 3].with_options(
            {"camps_hostile": hostile, "camp_to_camp": to_camp, "camp_reentry": False})
        core, nat = engines(variant)
        counts, observe = camp_events(core)
        native_differential.compare_game(core, nat, core.initial_position(), rng, 250, tally, observe)
        for k, v in counts.items():
            totals[k] += v
    assert tally.plies > 2_000 and tally.captures > 50, tally
    assert (totals["occupied_camp_capture"] > 0) == (hostile == "always"), totals
    assert (totals["empty_camp_capture_of_attacker"] > 0) == (hostile in ("all", "always")), totals
    assert (totals["camp_to_camp_move"] > 0) == to_camp, totals


# -- item 10: a hostile corner held by a defender ----------------------------------------------------------
def corner_position(rng: random.Random, rules):
    """Defenders on corners and beside them, attackers near, the king in the middle (None if refused)."""
    import native_differential

    g, n = rules.geometry, rules.N
    corners = sorted(g.corner_squares)
    king = (rules.H // 2) * rules.W + rules.W // 2
    cells = {king: "K"}
    for c in rng.sample(corners, rng.randint(1, len(corners))):
        cells[c] = "T"
        for nb in g.neighbours(c):
            if rng.random() < 0.7:
                cells[nb] = "T"
    free = [s for s in range(n) if s not in cells and s not in corners]
    near = [s for s in free if any(abs(g.file_rank(s)[0] - g.file_rank(c)[0]) + abs(g.file_rank(s)[1]
                                                                                     - g.file_rank(c)[1]) <= 3
                                   for c in corners)]
    for s in rng.sample(near, min(len(near), rng.randint(3, 8))):
        cells[s] = "t"
    try:
        return rules.parse_position(native_differential.setup_text(rules.W, rules.H, cells), Side.ATTACKERS)
    except ValueError:
        return None


def test_random_games_with_defenders_on_hostile_corners_agree_ply_by_ply():
    """corner_entry = defenders (source 004 rule 5) with hostile corners: our reading, on the rule sheet, is
    that a corner stays hostile while a defender stands on it (OpenTafl's corh; tafl-rules.md 2.3).  Games
    from positions with defenders on and beside the corners agree ply by ply, and defenders are taken
    against a corner held by a defender."""
    import native_differential

    rng = random.Random(3210)
    tally = native_differential.Tally()
    against_held_corner = 0
    for i in range(120):
        base = presets()[("single_step", "brandubh", "copenhagen")[i % 3]]
        variant = base.with_options({"corner_entry": "defenders", "corners_hostile": True})
        core, nat = engines(variant)
        start = corner_position(rng, core)
        if start is None:
            continue
        g, corners = core.geometry, core.geometry.corner_squares

        def observe(pos, _moves, move, caps, g=g, corners=corners):
            nonlocal against_held_corner
            tf, tr = g.file_rank(move[1])
            for c in caps:
                cf, cr = g.file_rank(c)
                pf, pr = 2 * cf - tf, 2 * cr - tr
                if pos.dfn >> c & 1 and 0 <= pf < g.width and 0 <= pr < g.height:
                    p = g.index(pf, pr)
                    against_held_corner += p in corners and bool(pos.dfn >> p & 1)

        native_differential.compare_game(core, nat, start, rng, 80, tally, observe)
    assert tally.games > 80 and tally.captures > 50, tally
    assert against_held_corner > 0, tally


# -- inactive toggles play as their defaults -----------------------------------------------------------
@pytest.mark.parametrize(("board", "set_", "plays_as"), [
    ("tablut_camps", {"camp_reentry": True, "camp_to_camp": True}, {"camp_reentry": True}),
    ("tablut_camps", {"camps": False, "camps_hostile": "always", "camp_crossing": "everyone"}, {"camps": False}),
    ("copenhagen", {"escape_safe": True}, {}),
    ("copenhagen", {"shield_wall": False, "shield_wall_flank": False}, {"shield_wall": False}),
])
def test_a_toggle_that_does_not_apply_reaches_the_native_engine_as_its_default(board, set_, plays_as):
    """Issue 32: a toggle the panel greys out (it does not apply under the others) plays as its default, so no
    rule is in force that the player cannot see.  The bridge hands the native engine what the core plays, and
    perft 3 native equals the core's, and equals that of the variant without the inactive toggle."""
    variant = presets()[board].with_options(set_)
    core_rules = variant.make_rules()
    from tafl_desktop.native.bridge import PYTHON_ONLY

    # the options the native engine plays (hnefatafl.org's own rules are the core's alone)
    assert native.config_for(variant)["options"] == {k: v for k, v in core_rules.opts.items() if k not in PYTHON_ONLY}
    core, nat = perft_both(variant, None, None, 3)
    assert core == nat == perft_both(presets()[board].with_options(plays_as), None, None, 3)[0]

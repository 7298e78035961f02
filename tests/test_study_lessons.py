"""Lessons are data checked by the engine: every step's stored solution does its task, wrong
moves are explained with the engine's own reasons, texts speak the variant's side names, and the
toggle lessons depend on their toggles (strict custodian and immobilisation: source 000, as cited
in ``tafl_desktop/core/tafl_options.py``)."""

from __future__ import annotations

import dataclasses

import pytest

from tafl_desktop.study.lessons import LessonError, check_lesson, judge, load_lesson, load_lessons


@pytest.fixture(scope="module")
def lessons():
    return {lesson.id: lesson for lesson in load_lessons()}


def test_every_family_and_topic_has_lessons(lessons):
    assert {lesson.family for lesson in lessons.values()} == {"tafl", "hunt", "dablot"}
    for lesson_id in ("tafl-moving", "tafl-capture", "tafl-king", "tafl-escape", "tafl-walls", "tafl-strict",
                      "fox-geese", "asalto-halatafl", "dablot-ranks"):
        assert lessons[lesson_id].steps


def test_every_stored_solution_does_its_task(lessons):
    faults = [f for lesson in lessons.values() for f in check_lesson(lesson)]
    assert faults == []


def move(step, text):
    _v, rules, pos = step.start()
    return rules.parse_move(pos, text)


@pytest.mark.parametrize(("lesson_id", "index", "wrong", "says"), [
    ("tafl-moving", 1, "d4-d7", "blocked at d6"),                    # engine: the way is blocked
    ("tafl-capture", 0, "d1-d4", "may not stop on the throne"),       # engine: throne reserved for the king
    ("tafl-capture", 0, "d1-d2", "captures nothing"),
    ("tafl-king", 1, "c6-c7", "the game goes on"),                    # a strong king needs four sides
    ("tafl-strict", 0, "d2-d5", "the king was captured"),             # stopping between two enemies
    ("asalto-halatafl", 0, "d3-d2", "may not move along that line or in that direction"),
    ("asalto-halatafl", 2, "c6-d6", "costs you your own piece on d6"),  # huffing
    ("dablot-ranks", 3, "a1-a2", "soldiers must capture"),            # compulsory capture house rule
])
def test_wrong_moves_are_explained_by_the_engine(lessons, lesson_id, index, wrong, says):
    step = lessons[lesson_id].steps[index]
    verdict = judge(step, move(step, wrong))
    assert not verdict.ok and says in verdict.message


def test_any_correct_move_is_accepted(lessons):
    step = lessons["tafl-king"].steps[2]  # "move the king to safety": more than one answer
    assert judge(step, move(step, "b3-b6")).ok and judge(step, move(step, "b3-a3")).ok
    assert "Not safe" in judge(step, move(step, "b3-b2")).message  # b1 and an attacker to b3 would take him


def test_a_son_outranks_a_soldier_but_not_the_reverse(lessons):
    """Source 000 (Mini-Dablot): a piece takes only its equals or lessers."""
    step = lessons["dablot-ranks"].steps[0]
    assert judge(step, move(step, "c5xc9")).ok
    swapped = dataclasses.replace(step, position="south=sc5,sa1,kf1 north=pc7,ka13,sf13")
    _v, rules, pos = swapped.start()
    assert not any(m[0] == rules.geometry.parse_square("c5") and len(m) > 2 or
                   rules.move_text(m) == "c5xc9" for m in rules.legal_moves(pos))


def test_toggle_lessons_depend_on_their_toggle(lessons):
    strict, immob = lessons["tafl-strict"].steps
    assert not judge(strict, move(strict, "d2-d5")).ok
    assert judge(dataclasses.replace(strict, options={}), move(strict, "d2-d5")).ok
    assert judge(immob, move(immob, "c5-c2")).ok
    assert not judge(dataclasses.replace(immob, options={}), move(immob, "c5-c2")).ok


def test_texts_use_the_variants_side_names(lessons):
    step = lessons["fox-geese"].steps[0]
    variant, _r, _p = step.start()
    text = step.instructions(variant)
    assert "The fox captures" in text and "{" not in text
    hal = lessons["asalto-halatafl"].steps[1]
    assert "The sheep win" in hal.instructions(hal.start()[0])
    german = step.instructions(variant, "de")
    assert "Gans auf d3" in german and "{" not in german and german != text


@pytest.mark.parametrize("content", ["id = ", "id = 'x'\nfamily = 'tafl'\ntitle = {en='t'}\n[[steps]]\nvariant = 1\n",
                                     "\x00\x01binary", "id='x'\nfamily='tafl'\ntitle={en='t'}\n[[steps]]\n"
                                     "variant='brandubh'\nposition='/7/'\nto_move='defenders'\ntext={en='t'}\n"
                                     "task={kind='fly'}\nsolution='d4-d5'\n"])
def test_a_bad_lesson_file_is_one_clear_error(tmp_path, content):
    p = tmp_path / "bad.toml"
    p.write_text(content, encoding="utf-8")
    with pytest.raises(LessonError) as err:
        load_lesson(p)
    assert "bad.toml" in str(err.value) and "\n" not in str(err.value)


# -- the house-rule, king-capture and one-way-flock lessons -----------------------------------------
NEW_LESSONS = ("dablot-house-rules", "tafl-king-capture-rules", "fox-one-way-flock")


@pytest.mark.parametrize("lesson_id", NEW_LESSONS)
def test_new_lessons_load_solve_and_speak_five_languages(lessons, lesson_id):
    lesson = lessons[lesson_id]
    assert lesson.steps and check_lesson(lesson) == []
    for language in ("en", "da", "de", "fr", "ru"):
        assert lesson.title.get(language)
        for step in lesson.steps:
            assert step.text.get(language), (lesson_id, language)
            assert "{" not in step.instructions(step.start()[0], language)


@pytest.mark.parametrize(("lesson_id", "index", "wrong", "says"), [
    # source 000 variant 2a: soldiers may not step back under Ever Onward
    ("dablot-house-rules", 0, "c5-c3", "soldiers may not move backwards (Ever Onward)"),
    # source 000 variant 2b: with four ranks the officer (2) no longer takes the son (3)
    ("dablot-house-rules", 4, "c5xc9", "the piece on c7 outranks this piece"),
    # source 000 variant 4: three actions a turn, so a fourth jump is refused
    ("dablot-house-rules", 5, "c5xc9xc13xe13xf11", "only 3 actions are left this turn"),
    # source 000 variant 3: a marked soldier reaching the far edge stays a soldier
    ("dablot-house-rules", 3, "c11-c13", "the task is to reach e13"),
    # four-sided capture: three attackers do not yet take the king
    ("tafl-king-capture-rules", 3, "h1-g1", "the game goes on"),
    # fox_geese_15: the geese may not step back (source 000)
    ("fox-one-way-flock", 0, "d4-d3", "may not move along that line or in that direction"),
    ("fox-one-way-flock", 0, "a3-a4", "Not safe"),
])
def test_wrong_moves_in_the_new_lessons_are_explained(lessons, lesson_id, index, wrong, says):
    step = lessons[lesson_id].steps[index]
    verdict = judge(step, move(step, wrong))
    assert not verdict.ok and says in verdict.message


def _solves(step, **options):
    changed = dataclasses.replace(step, options={**step.options, **options})
    return judge(changed, move(changed, step.solution)).ok


def test_each_king_capture_step_captures_under_its_rule_and_not_another(lessons):
    """Sources 001-003 as cited in tafl_options.py: the same shape takes the king under one
    king-capture rule and not under the next stricter one."""
    on_throne, beside_throne, three_and_throne, four_sides, edge = lessons["tafl-king-capture-rules"].steps
    assert _solves(on_throne) and not _solves(on_throne, king_capture="double_weak")
    assert _solves(beside_throne) and not _solves(beside_throne, king_capture="weak_near_throne")
    assert _solves(three_and_throne) and not _solves(beside_throne, king_capture="strong")
    assert _solves(four_sides) and not judge(four_sides, move(four_sides, "h1-g1")).ok
    assert _solves(edge) and not _solves(edge, king_edge_capture=False)


def test_each_dablot_house_rule_step_depends_on_its_rule(lessons):
    """Source 000, Mini-Dablot variants 2a, 2b, 3, 4 and 5."""
    onward, promote, officer, material, four, actions, ambush = lessons["dablot-house-rules"].steps
    _v, rules, pos = onward.start()
    assert "c5-c3" not in {rules.move_text(m) for m in rules.legal_moves(pos)}
    assert "c5-c3" in {rules.move_text(m) for m in dataclasses.replace(onward, options={}).start()[1]
                       .legal_moves(dataclasses.replace(onward, options={}).start()[2])}
    for step, mover, promoted in ((promote, "c11-c13", "oc13"), (material, "e11-e13", "oe13"),
                                  (material, "c11-c13", "rc13")):
        _v, rules, pos = step.start()
        after, _caps = rules.play(pos, rules.parse_move(pos, mover))
        assert promoted in rules.position_text(after)
    assert _solves(officer) and _solves(four) and not _solves(officer, four_ranks=True)
    assert _solves(actions) and _solves(ambush) and not _solves(ambush, ambush=False)
    _v, rules, pos = actions.start()
    after, _caps = rules.play(pos, rules.parse_move(pos, actions.solution))
    assert int(rules.side_to_move(after)) != int(rules.side_to_move(pos))  # three actions spent: the turn passes


def test_the_one_way_flock_step_depends_on_its_rule(lessons):
    step = lessons["fox-one-way-flock"].steps[0]
    assert not judge(step, move(step, "d4-d3")).ok
    free = dataclasses.replace(step, options={"flock_backwards": True})
    assert judge(free, move(free, "d4-d3")).ok


def test_the_edge_fort_step_passes_only_moves_that_close_the_fort(lessons):
    """Copenhagen rules, 'Exit forts' (tafl-rules.md 2.2): the fort must be one 'impossible for the attackers
    to break'.  With attackers on the board, of the step's legal moves exactly those that close the gap
    beside the king win (g5-g2, g5-g1, h1-g1); d1-c1 opens the fort and is refused, with a reason."""
    step = lessons["tafl-walls"].steps[1]
    _variant, rules, pos = step.start()
    assert rules.position_text(pos).count("t") >= 2  # attackers to break anything left open
    passing = {rules.move_text(m) for m in rules.legal_moves(pos) if judge(step, m).ok}
    assert passing == {"g5-g2", "g5-g1", "h1-g1"}
    verdict = judge(step, move(step, "d1-c1"))
    assert not verdict.ok and verdict.legal and verdict.message


def test_lesson_texts_read_as_english_with_the_side_names_filled_in(lessons):
    """The filled-in sentences name one fox as 'the fox', the Swedes with their capital, and one attacker
    on d6 as one: no 'next to fox', 'trap fox', 'three swedes' or 'The attackers stand on d6'."""
    texts = []
    for lesson in lessons.values():
        for step in lesson.steps:
            variant, _rules, _pos = step.start()
            texts.append(step.instructions(variant, "en"))
    joined = "\n".join(texts)
    for slip in ("next to fox", "trap fox", "three swedes", "attackers stand on d6"):
        assert slip not in joined
    assert "trap the fox" in joined and "take three Swedes" in joined and "One of the attackers stands on d6" in joined

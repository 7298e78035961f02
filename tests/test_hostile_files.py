"""Files from strangers: thousands of mutated and random variant and game files, fed to the loaders.

Every file must either load into a valid, playable game or be rejected with a one-line
VariantError/RecordError message; nothing else may escape (no TypeError, KeyError, RecursionError...).

The two mutation properties run 500 examples each in the suite and 5,000 in their deep runs
(``pytest -m slow tests/test_hostile_files.py``), which keep the suite inside its time.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tafl_desktop.core.game import Game
from tafl_desktop.core.record import RecordError, game_from_data, game_to_data, load_game
from tafl_desktop.core.variants import VariantError, dump_variant, find_variant, load_variant, variant_from_data

SEED_VARIANTS = ["brandubh", "copenhagen", "tablut_camps", "alea_evangelii", "single_step", "fox_geese_13", "asalto",
                 "dablot_mini"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 40), st.text(max_size=12),
                    st.sampled_from(["centre", "none", "corners", "a1", "k11", "edge", "strong", "yes", "e5-e9"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                      max_leaves=6)


def mutate(data, path_choice: list, new_value):
    """Replace, delete or add one key somewhere in nested dicts, guided by drawn choices."""
    node = data
    for step in path_choice[:-1]:
        if isinstance(node, dict) and node:
            keys = sorted(node, key=str)
            nxt = node[keys[step % len(keys)]]
            if isinstance(nxt, (dict, list)):
                node = nxt
    last = path_choice[-1]
    if isinstance(node, dict):
        keys = sorted(node, key=str)
        if keys and last % 3 == 0:
            del node[keys[last % len(keys)]]
        elif keys and last % 3 == 1:
            node[keys[last % len(keys)]] = new_value
        else:
            node[f"k{last}"] = new_value
    elif isinstance(node, list) and node:
        node[last % len(node)] = new_value


def check_variant_data(data) -> None:
    try:
        v = variant_from_data(data, "fuzz.toml")
    except VariantError as exc:
        assert "\n" not in str(exc).strip()
        return
    rules = v.make_rules()
    pos = rules.initial_position()
    for m in rules.legal_moves(pos)[:3]:
        rules.play(pos, m)


#: Examples of each mutation property in the suite, and in its deep (slow-marked) run.
SUITE_EXAMPLES, DEEP_EXAMPLES = 500, 5000
#: What a mutation property draws: a seed variant, a path of keys, a value to put there.
MUTATIONS = (st.sampled_from(SEED_VARIANTS), st.lists(st.integers(0, 50), min_size=1, max_size=4), values)


def _examples(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def mutated_variant_data_loads_or_is_rejected_cleanly(vid, path, new_value):
    data = find_variant(vid).to_data()
    mutate(data, path, new_value)
    check_variant_data(data)


test_mutated_variant_data_loads_or_is_rejected_cleanly = _examples(SUITE_EXAMPLES)(
    given(*MUTATIONS)(mutated_variant_data_loads_or_is_rejected_cleanly))
test_mutated_variant_data_deep = pytest.mark.slow(_examples(DEEP_EXAMPLES)(
    given(*MUTATIONS)(mutated_variant_data_loads_or_is_rejected_cleanly)))


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300))
def test_random_bytes_as_variant_file(tmp_path_factory, blob):
    f = tmp_path_factory.mktemp("v") / "random.toml"
    f.write_bytes(blob if isinstance(blob, bytes) else blob.encode("utf-8", "surrogatepass"))
    try:
        load_variant(f)
    except VariantError as exc:
        assert "random.toml" in str(exc)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SEED_VARIANTS), st.integers(0, 400), st.text(alphabet="\"=[]\n abcdefgk#1230.,{}", max_size=6))
def test_corrupted_variant_text(tmp_path_factory, vid, where, junk):
    text = dump_variant(find_variant(vid))
    where = where % (len(text) + 1)
    f = tmp_path_factory.mktemp("v") / "corrupt.toml"
    f.write_text(text[:where] + junk + text[where + len(junk):])
    try:
        v = load_variant(f)
    except VariantError as exc:
        assert "corrupt.toml" in str(exc)
        return
    assert v.make_rules().initial_position() is not None
    tomllib.loads(f.read_text())  # what loaded was valid TOML


def _sample_record(vid: str) -> dict:
    rules = find_variant(vid).make_rules()
    g = Game(rules)
    for _ in range(6):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(moves[len(moves) // 3])
    return game_to_data(g)


RECORDS = {vid: _sample_record(vid) for vid in SEED_VARIANTS}


def mutated_game_records_load_or_are_rejected_cleanly(vid, path, new_value):
    data = json.loads(json.dumps(RECORDS[vid]))
    mutate(data, path, new_value)
    try:
        g = game_from_data(data, "fuzz.json")
    except RecordError as exc:
        assert "\n" not in str(exc).strip()
        return
    # a record that loads is a real game: its moves replay to the same position
    again = Game(g.rules, g.start)
    for text in g.move_texts():
        again.play_text(text)
    assert again.position == g.position


test_mutated_game_records_load_or_are_rejected_cleanly = _examples(SUITE_EXAMPLES)(
    given(*MUTATIONS)(mutated_game_records_load_or_are_rejected_cleanly))
test_mutated_game_records_deep = pytest.mark.slow(_examples(DEEP_EXAMPLES)(
    given(*MUTATIONS)(mutated_game_records_load_or_are_rejected_cleanly)))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_as_game_file(tmp_path_factory, blob):
    f = tmp_path_factory.mktemp("g") / "random.json"
    f.write_bytes(blob)
    try:
        load_game(f)
    except RecordError as exc:
        assert "random.json" in str(exc)

"""Located YAML reading: lines of keys and items, YAML 1.2 booleans, duplicate keys."""
import pytest

from generator.errors import InputError
from generator.yamlio import item_line, key_line, load_yaml


def test_lines_of_keys_and_items(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("# comment\ntitle: x\ncards:\n  - id: a\n    answer: no\n  - id: b\n    flag: true\n")
    data = load_yaml(path)
    assert key_line(data, "cards") == 3
    assert item_line(data["cards"], 1) == 6
    assert key_line(data["cards"][0], "answer") == 5
    assert data["cards"][0]["answer"] == "no" and data["cards"][1]["flag"] is True


def test_a_duplicate_key_is_a_located_error(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("title: x\nplayers: 2\ntitle: y\n")
    with pytest.raises(InputError) as error:
        load_yaml(path)
    [problem] = error.value.problems
    assert problem.line == 3 and "appears twice" in problem.message


def test_a_large_file_without_aliases_loads(tmp_path):
    """The bound on values is on what aliases repeat: a 20,000-card deck file writes 340,000 values out."""
    path = tmp_path / "a.yaml"
    path.write_text("cards:\n" + "".join(f"  - {{id: c{i}, n: {i}}}\n" for i in range(50_000))
                    + "note: R&D\n")  # an & that is no anchor
    data = load_yaml(path)
    assert len(data["cards"]) == 50_000 and item_line(data["cards"], 49_999) == 50_001


def test_an_alias_repeating_too_much_is_a_located_error(tmp_path):
    path = tmp_path / "a.yaml"
    lines = ["big: &a [" + ", ".join(["x"] * 1000) + "]", "many:"] + ["  - *a"] * 201
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as error:
        load_yaml(path)
    [problem] = error.value.problems
    assert problem.line == 3 and "expand to more than 200,000 values" in problem.message

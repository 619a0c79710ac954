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

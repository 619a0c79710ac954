"""`pnpgen serve` over HTTP: edits written like `i18n import`, previews re-rendered, files watched, and
everything the server must refuse (other origins and hosts, paths outside the game, stale or bad edits)."""

from __future__ import annotations

import threading
import time

import pytest

CARDS = "decks/cards.yaml"


def read(game, name=CARDS):
    return (game / name).read_text(encoding="utf-8")


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    old, new = before.splitlines(), after.splitlines()
    assert len(old) == len(new)
    return [(a, b) for a, b in zip(old, new) if a != b]


def wait_until(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def card(state, card_id):
    return next(c for deck in state["decks"] for c in deck["cards"] if c["id"] == card_id)


def test_serve_listens_on_loopback_only_and_has_help(served, cli):
    assert served.server.server_address[0] == "127.0.0.1"
    result = cli("serve", "--help")
    assert result.code == 0 and "--port" in result.out and "--host" not in result.out and "--bind" not in result.out


def test_the_state_has_every_card_with_its_faces_strings_and_versions(served):
    status, state = served.request("/api/state")
    assert status == 200 and state["error"] is None
    apple = card(state, "apple")
    assert apple["strings"] == ["cards[apple].name", "cards[apple].text"]
    assert set(apple["faces"]) == {"ja", "en"} and all(apple["faces"]["en"].values())
    name = state["strings"]["cards[apple].name"]
    assert (name["values"], name["file"], name["line"]) == ({"ja": "りんご", "en": "Apple"}, CARDS, 10)
    status, png = served.request(f"/face/{apple['faces']['en']['front']}.png")
    assert status == 200 and png.startswith(b"\x89PNG")


def test_editing_a_translation_changes_one_yaml_line_and_the_preview(served, small_game):
    before = read(small_game)
    old_face = card(served.request("/api/state")[1], "apple")["faces"]["en"]["front"]
    started = time.process_time()  # the server renders in this process (jobs=1): its work, not the machine's load
    status, answer = served.edit("cards[apple].name", "en", "Green Apple")
    elapsed = time.process_time() - started
    assert status == 200 and answer["written"] == [CARDS]
    assert changed_lines(before, read(small_game)) == [
        ("    name: {ja: りんご, en: Apple}", "    name: {ja: りんご, en: Green Apple}")
    ]
    state = served.request("/api/state")[1]
    assert state["strings"]["cards[apple].name"]["values"]["en"] == "Green Apple"
    faces = card(state, "apple")["faces"]
    assert faces["en"]["front"] != old_face
    assert faces["ja"]["front"] == card(state, "apple")["faces"]["ja"]["front"]
    new_png, old_png = served.request(f"/face/{faces['en']['front']}.png")[1], served.request(f"/face/{old_face}.png")
    assert new_png.startswith(b"\x89PNG") and new_png != old_png[1]
    assert elapsed < 5, f"an edit took {elapsed:.1f} s of CPU time"


def test_an_edit_from_an_older_copy_of_the_file_is_refused(served, small_game):
    version = served.string("cards[pear].name")["version"]
    assert served.edit("cards[apple].name", "en", "Green Apple")[0] == 200  # same file, newer text
    before = read(small_game)
    status, answer = served.edit("cards[pear].name", "en", "Big Pear", version=version)
    assert status == 409 and "changed since the page showed it" in answer["error"]
    assert read(small_game) == before


def test_a_broken_placeholder_is_refused_and_nothing_written(served, small_game):
    before = read(small_game)
    status, answer = served.edit("cards[apple].text", "en", "Draw {n} card.")
    assert status == 400 and "placeholders differ" in answer["error"]
    status, answer = served.edit("cards[apple].text", "en", "   ")
    assert status == 400 and "empty" in answer["error"]
    assert read(small_game) == before


def test_a_source_edit_keeps_the_placeholders_its_translations_use(served, small_game):
    path = small_game / CARDS
    path.write_text(
        read(small_game)
        .replace("en: Draw 1 card.", "en: 'Draw {deck.cards} cards.'")
        .replace("ja: 手札を1枚引く。", "ja: '手札を{deck.cards}枚引く。'"),
        encoding="utf-8",
    )
    assert wait_until(lambda: "{deck.cards}" in served.string("cards[apple].text")["values"]["ja"])
    before = read(small_game)
    status, answer = served.edit("cards[apple].text", "ja", "手札を1枚引く。")
    assert status == 400 and "the en translation uses them" in answer["error"]
    assert read(small_game) == before


def test_writes_from_another_origin_or_host_are_refused(served, small_game):
    before = read(small_game)
    body = {
        "id": "cards[apple].name",
        "lang": "en",
        "text": "Evil",
        "version": served.string("cards[apple].name")["version"],
    }
    assert served.request("/api/edit", body, headers={"Origin": "http://evil.example"})[0] == 403
    assert served.request("/api/edit", body, origin=False)[0] == 403
    assert served.request("/api/edit", body, headers={"Host": "evil.example"})[0] == 403
    assert served.request("/api/state", headers={"Host": f"rebind.example:{served.server.server_port}"})[0] == 403
    assert served.request("/api/edit", body, headers={"Content-Type": "text/plain"})[0] == 400
    assert read(small_game) == before


@pytest.mark.parametrize(
    "path",
    [
        "/game/../game.yaml",
        "/game/..%2F..%2Fetc%2Fpasswd",
        "/game/%2e%2e/%2e%2e/etc/passwd",
        "/game//etc/passwd",
        "/game/decks/../../small/game.yaml/../../x",
    ],
)
def test_only_the_games_own_files_are_served(served, path):
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", served.server.server_port, timeout=10)
    connection.request("GET", path)  # sent as written, not normalized by a client
    response = connection.getresponse()
    assert response.status in (403, 404) and b"root:" not in response.read()


def test_a_game_file_is_served_as_text(served, small_game):
    status, text = served.request("/game/decks/cards.yaml")
    assert status == 200 and text.decode("utf-8") == read(small_game)
    assert served.request("/face/" + "0" * 64 + ".png")[0] == 404  # a face of no card of this game


def test_a_change_made_in_a_text_editor_reaches_the_page(served, small_game):
    events = []

    def listen():
        import urllib.request

        with urllib.request.urlopen(served.url + "/api/events", timeout=30) as stream:
            for line in stream:
                if line.startswith(b"data:"):
                    events.append(int(line[5:]))
                    if len(events) == 2:
                        return

    threading.Thread(target=listen, daemon=True).start()
    assert wait_until(lambda: len(events) == 1)
    (small_game / CARDS).write_text(read(small_game).replace("en: Pear}", "en: Ripe Pear}"), encoding="utf-8")
    assert wait_until(lambda: len(events) == 2), "no event after the file changed"
    assert served.string("cards[pear].name")["values"]["en"] == "Ripe Pear"


def test_the_page_shows_the_data_problems_build_reports(served, small_game):
    assert served.request("/api/state")[1]["data_problems"] == []
    components = small_game / "components.yaml"
    components.write_text(read(small_game, "components.yaml").replace("count: 6", "count: 5"), encoding="utf-8")
    assert wait_until(lambda: served.request("/api/state")[1]["data_problems"])
    [problem] = served.request("/api/state")[1]["data_problems"]
    assert "components.yaml:3" in problem and "holds 5 cards" in problem


def test_broken_yaml_is_shown_with_its_location_and_the_cards_kept(served, small_game):
    (small_game / CARDS).write_text(
        read(small_game).replace("    count: 2\n    value: 1", "    count: [2\n    value: 1"), encoding="utf-8"
    )
    assert wait_until(lambda: served.request("/api/state")[1]["error"])
    state = served.request("/api/state")[1]
    assert any(CARDS in message and ":1" in message for message in state["error"]), state["error"]
    assert card(state, "apple")
    status, answer = served.edit(
        "cards[pear].name", "en", "Big Pear", version=state["strings"]["cards[pear].name"]["version"]
    )
    assert status == 409 and "cannot be read" in answer["error"]


def test_confirming_a_stale_translation_updates_the_lock(served, small_game):
    assert served.edit("cards[pear].name", "ja", "西洋なし")[0] == 200  # the source changed: the English is stale
    string = served.string("cards[pear].name")
    assert [p["kind"] for p in string["problems"]] == ["stale"] and string["previous"] == {"en": "洋なし"}
    lock_before = read(small_game, "i18n.lock.yaml")
    status, answer = served.request(
        "/api/confirm", {"id": "cards[pear].name", "lang": "en", "version": string["version"]}
    )
    assert status == 200 and answer == {"confirmed": 1, "written": ["i18n.lock.yaml"], "version": answer["version"]}
    assert changed_lines(lock_before, read(small_game, "i18n.lock.yaml")) != []
    assert served.string("cards[pear].name")["problems"] == []


def test_rule_blocks_are_edited_like_card_texts(served, small_game, monkeypatch):
    import yaml

    from generator.model import texts as inventory
    from generator.model.game import Text

    rules = small_game / "rules.yaml"
    rules.write_text(
        "# Rule blocks\nblocks:\n  - id: setup\n    text: {ja: 各自3枚引く。, en: Everyone draws 3.}\n",
        encoding="utf-8",
    )

    def rule_blocks(game):
        for index, block in enumerate(yaml.safe_load(rules.read_text(encoding="utf-8"))["blocks"]):
            yield f"rules[{block['id']}].text", Text(block["text"], rules, 4, ("blocks", index, "text"))

    monkeypatch.setattr(inventory, "TEXT_SOURCES", [*inventory.TEXT_SOURCES, rule_blocks])
    served.session.refresh()
    state = served.request("/api/state")[1]
    assert {"kind": "rule block", "strings": ["rules[setup].text"]} in state["groups"]
    assert served.edit("rules[setup].text", "en", "Each player draws 3 cards.")[0] == 200
    assert read(small_game, "rules.yaml").endswith("text: {ja: 各自3枚引く。, en: Each player draws 3 cards.}\n")


def test_a_busy_port_is_a_clear_error(served, small_game, cli, tmp_path):
    result = cli("serve", small_game, "--port", served.server.server_port, "--out", tmp_path)
    assert result.code == 2 and f"cannot listen on 127.0.0.1:{served.server.server_port}" in result.err


def test_without_templates_the_texts_are_still_editable(small_game, face_cache_dir):
    from conftest import Served

    (small_game / "templates" / "card.html").unlink()
    served = Served(small_game, face_cache_dir)
    try:
        state = served.request("/api/state")[1]
        assert "no previews" in state["layout_note"] and "card.html" in state["layout_note"]
        assert card(state, "apple")["faces"] == {}
        assert served.edit("cards[apple].name", "en", "Green Apple")[0] == 200
    finally:
        served.stop()


def test_an_overflowing_text_flags_the_card_and_is_outlined_on_its_preview(served):
    long_name = "An Extraordinarily Overlong Name For A Pear That Runs Far Past Its Header Box Everywhere"
    status, _ = served.edit("cards[pear].name", "en", long_name)
    assert status == 200
    state = served.request("/api/state")[1]
    pear = card(state, "pear")
    assert any(p["kind"] == "overflow" and p["lang"] == "en" for p in state["strings"]["cards[pear].name"]["problems"])
    [outline, *_] = pear["outlines"]["en"]["front"]
    assert 0 <= outline["x"] < 100 and 0 <= outline["y"] < 100 and outline["w"] > 0 and outline["h"] > 0
    assert "overflows" in outline["message"] or "runs" in outline["message"]
    assert "en" not in card(state, "apple")["outlines"]


def raw_request(served, data: bytes, wait: float = 10) -> bytes:
    """What the server answers to these bytes ('' when it drops the connection without an answer)."""
    import socket

    host, port = served.server.server_address[:2]
    with socket.create_connection((host, port), timeout=wait) as connection:
        connection.sendall(data)
        answer = b""
        try:
            while (not answer.endswith(b"}") and b"\r\n\r\n" not in answer) or not answer:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                answer += chunk
            answer += connection.recv(65536)
        except (TimeoutError, ConnectionResetError):
            pass
        return answer


def post_bytes(served, body: bytes, length: str | None = None) -> bytes:
    host = served.url.removeprefix("http://")
    head = (
        f"POST /api/edit HTTP/1.1\r\nHost: {host}\r\nOrigin: {served.url}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length if length is not None else len(body)}\r\nConnection: close\r\n\r\n"
    )
    return raw_request(served, head.encode() + body)


@pytest.mark.parametrize("path", ["/game/%00", "/game/" + "a" * 6000, "/deck/" + "%ff" * 2000])
def test_a_malformed_path_gets_an_answer(served, path):
    host = served.url.removeprefix("http://")
    answer = raw_request(served, f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
    assert answer.split(b" ")[1] in (b"400", b"404", b"200"), answer[:200]


def test_a_malformed_body_gets_a_400(served):
    assert post_bytes(served, b"{}", length="abc").split(b" ")[1] == b"400"
    deep = b"[" * 100_000 + b"]" * 100_000
    answer = post_bytes(served, deep)
    assert answer.split(b" ")[1] == b"400" and b"nested too deeply" in answer


def test_a_body_that_never_arrives_does_not_hold_a_thread(served, monkeypatch):
    import time

    from generator.web import server as server_module

    assert 0 < (server_module.Handler.timeout or 0) <= 30  # a socket read timeout, shortened here for the test
    monkeypatch.setattr(server_module.Handler, "timeout", 1)
    started = time.monotonic()
    answer = post_bytes(served, b'{"id": "cards[apple].name"', length="500")  # 26 bytes of 500 sent
    assert time.monotonic() - started < 8
    assert answer == b"" or answer.split(b" ")[1] == b"400"


def test_every_answer_carries_the_content_security_policy(served):
    import urllib.request

    with urllib.request.urlopen(served.url + "/", timeout=30) as response:
        policy = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_template_labels_are_edited_like_card_texts(served, small_game):
    (small_game / "labels.yaml").write_text("labels:\n  kind: {ja: 果物, en: Fruit}\n", encoding="utf-8")
    template = small_game / "templates" / "card.html"
    template.write_text(
        template.read_text(encoding="utf-8").replace(
            '<div class="value">', '<div class="kind">{{ label(\'kind\') | tx }}</div><div class="value">'
        ),
        encoding="utf-8",
    )
    served.session.refresh()
    state = served.request("/api/state")[1]
    assert {"kind": "template label", "strings": ["labels[kind].text"]} in state["groups"]
    old_face = card(state, "apple")["faces"]["en"]["front"]
    status, answer = served.edit("labels[kind].text", "en", "Fresh fruit")
    assert status == 200 and answer["written"][0] == "labels.yaml"
    assert read(small_game, "labels.yaml") == "labels:\n  kind: {ja: 果物, en: Fresh fruit}\n"
    assert card(served.request("/api/state")[1], "apple")["faces"]["en"]["front"] != old_face

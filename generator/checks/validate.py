"""`pnpgen validate`'s checks: everything a designer gets wrong by hand, each with file and line.

The game declares what must hold (setup deals, invariants, unique fields) in game.yaml; this module
knows no game by name.
"""
from __future__ import annotations

import itertools
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from generator.checks.templates import check_templates
from generator.checks.expr import ExpressionError, ExpressionTooLarge, Namespace, evaluate
from generator.errors import InputError, Problem, did_you_mean, display_path, unique_problems
from generator.model.game import Card, Game, Text
from generator.model.rules import has_rules, load_rules
from generator.model.schema import walk_refs


@dataclass
class DeckRow:
    in_box: int
    removed: int
    in_play: int
    dealt: int = 0

    @property
    def left(self) -> int:
        return self.in_play - self.dealt


@dataclass
class PlayerCount:
    players: int
    decks: dict[str, DeckRow] = field(default_factory=dict)
    setup: dict[str, dict] = field(default_factory=dict)


@dataclass
class Report:
    game: Game
    counts: dict[int, PlayerCount]
    problems: list[Problem]

    def as_json(self) -> dict:
        return {
            "game": self.game.id,
            "players": {str(n): {"decks": {d: row.in_play for d, row in pc.decks.items()},
                                 "removed": {d: row.removed for d, row in pc.decks.items()},
                                 "setup": pc.setup}
                        for n, pc in self.counts.items()},
            "problems": [problem_json(p, self.game.dir) for p in self.problems],
        }


def problem_json(problem: Problem, game_dir: Path | None) -> dict:
    """A problem as `validate --json` gives it: its file relative to the game directory when there is one."""
    file = None
    if problem.file is not None:
        file = os.path.relpath(problem.file, game_dir) if game_dir else display_path(problem.file)
    message = f"{problem.key}: {problem.message}" if problem.key else problem.message
    return {"file": file, "line": problem.line, "message": message, "hint": problem.hint}


def validate(game: Game, only_players: int | None = None, templates: bool = True,
             langs: list[str] | None = None, memo=None, progress=None) -> Report:
    """Every check; `templates=False` leaves out the template checks (a build finds those as errors itself);
    `langs` limits the missing translations looked for to those languages (a build of some of them); `memo`
    (a FaceMemo) spares the template dry run the cards run before with the same inputs; `progress` counts them."""
    problems: list[Problem] = []
    low, high = game.players
    counts = [only_players] if only_players else list(range(low, high + 1))
    problems += game.template_problems
    problems += check_templates(game, memo, progress) if templates else []
    problems += check_box_contents(game)
    problems += check_ids(game)
    problems += check_references(game)
    problems += check_removals(game)
    problems += check_translations(game, langs)
    problems += check_placeholders(game)
    problems += check_rules(game)
    table = {}
    for players in counts:
        table[players] = deal(game, players, problems)
    problems += run_declared_checks(game, table)
    return Report(game, table, unique_problems(problems))


# --- box contents ------------------------------------------------------------------------------

def deck_copies(game: Game, deck_id: str) -> int | None:
    deck = game.decks.get(deck_id)
    return deck.copies if deck else None


def printable(folder: str, count):
    """A producer for boards, aids or token sheets: `count` of the item, None if there is none."""
    def produced(game: Game, item_id: str) -> int | None:
        item = getattr(game.printables, folder, {}).get(item_id) if game.printables else None
        return count(item) if item else None
    return produced


# How many pieces each kind of source produces, by kind (`deck: assets` -> copies of deck assets).
def rulebook_copies(game: Game, name: str) -> int | None:
    """`rules: rules` names cards/<game>/rules.yaml: one printed rulebook."""
    return 1 if (game.dir / f"{name}.yaml").is_file() else None


# Returns None when the game has no such source.
PRODUCERS: dict = {"deck": deck_copies,
                   "board": printable("boards", lambda board: board.copies),
                   "aid": printable("aids", lambda aid: aid.copies),
                   "tokens": printable("tokens", lambda sheet: sheet.counted),
                   "rules": rulebook_copies}
# What each kind of source can name, to find printed things no component lists.
PRINTED: dict = {"deck": lambda game: {d.id: d.file for d in game.decks.values()},
                 **{kind: (lambda folder: lambda game: {i.id: i.file for i in getattr(game.printables, folder,
                                                                                   {}).values()})(folder)
                    for kind, folder in (("board", "boards"), ("aid", "aids"), ("tokens", "tokens"))}}


def check_box_contents(game: Game) -> list[Problem]:
    problems = []
    named = set()
    for component in game.components:
        if not component.source:
            continue
        kind, source = component.source
        named.add((kind, source))
        producer = PRODUCERS.get(kind)
        produced = producer(game, source) if producer else None
        if produced is None:
            known = list(PRINTED[kind](game)) if kind in PRINTED else []
            problems.append(Problem(component.file, component.line,
                                    f"component '{component.id}' names {kind} '{source}', which does not exist",
                                    hint=did_you_mean(source, known) or (f"{kind}: {', '.join(known)}"
                                                                         if known else None)))
            continue
        if produced != component.count:
            difference = produced - component.count
            what = f"{abs(difference)} {'more' if difference > 0 else 'fewer'}"
            problems.append(Problem(component.file, component.line,
                                    f"the box holds {component.count} {component.id} but {kind} '{source}' "
                                    f"prints {produced} ({what})"))
        if component.per_kind and kind == "deck":
            problems += check_per_kind(component, game.decks[source])
    for kind, printed in PRINTED.items():
        for item_id, file in printed(game).items():
            if (kind, item_id) not in named:
                problems.append(Problem(file, 1, f"{kind} '{item_id}' is printed but no component in "
                                        f"components.yaml names it", hint=f"add a component with `{kind}: {item_id}`"))
    return problems


def check_per_kind(component, deck) -> list[Problem]:
    problems = []
    kinds = component.count // component.per_kind
    if component.count % component.per_kind or len(deck.cards) != kinds:
        problems.append(Problem(component.file, component.line,
                                f"{component.count} {component.id} at {component.per_kind} of each kind "
                                f"make {component.count / component.per_kind:g} kinds, but deck "
                                f"'{deck.id}' has {len(deck.cards)}"))
    for card in deck.cards:
        if card.count != component.per_kind:
            problems.append(Problem(card.file, card.line_of("count"),
                                    f"card '{card.id}' has {card.count} copies; the box contents say "
                                    f"{component.per_kind} of each kind"))
    return problems


# --- ids and references ------------------------------------------------------------------------

def check_ids(game: Game) -> list[Problem]:
    problems, first = [], {}
    for card in game.cards():
        if card.id in first:
            other = first[card.id]
            problems.append(Problem(card.file, card.line_of("id"), f"duplicate id '{card.id}': also used at "
                                    f"{other.file.name}:{other.line_of('id')}"))
        else:
            first[card.id] = card
    seen_components = {}
    for component in game.components:
        if component.id in seen_components:
            problems.append(Problem(component.file, component.line, f"duplicate component id '{component.id}'"))
        seen_components[component.id] = component
    return problems


def check_references(game: Game) -> list[Problem]:
    problems = []
    for deck in game.decks.values():
        for name, declared in deck.fields.items():
            for card in deck.cards:
                if name not in card.fields:
                    continue
                for _, target_deck, target in walk_refs(declared.spec, card.fields[name]):
                    target_cards = {c.id for c in game.decks[target_deck].cards} if target_deck in game.decks \
                        else None
                    if target_cards is None:
                        problems.append(Problem(deck.file, deck.lines.get("fields"),
                                                f"field '{name}' refers to deck '{target_deck}', which does not "
                                                "exist", hint=did_you_mean(target_deck, game.decks)))
                        break
                    if target not in target_cards:
                        problems.append(Problem(card.file, card.line_of(name),
                                                f"card '{card.id}' {name}: '{target}' is not a card of deck "
                                                f"'{target_deck}'", hint=did_you_mean(target, target_cards)))
    return problems


def check_removals(game: Game) -> list[Problem]:
    low, high = game.players
    problems = []
    for card in game.cards():
        for n in card.remove_at:
            if not low <= n <= high:
                problems.append(Problem(card.file, card.line_of("remove_at"),
                                        f"card '{card.id}' is removed at {n} players, but the game is for "
                                        f"{low}-{high} players"))
    return problems


# --- translations ------------------------------------------------------------------------------

def texts(game: Game):
    """Every localized text of the game with a label saying where it is.

    A label reads `collection[id].field` (or a bare key of game.yaml, like `title`); `pnpgen i18n` uses
    labels as string ids (PO msgctxt). Stages with texts of their own (rule blocks, boards, aids) add a
    function to TEXT_SOURCES yielding (label, Text), e.g. ("rules[setup].text", text).
    """
    for source in TEXT_SOURCES:
        yield from source(game)


def card_data_texts(game: Game):
    """The title, box contents, deck and card texts and setup labels."""
    yield "title", game.title
    for component in game.components:
        yield f"components[{component.id}].name", component.name
        if component.note:
            yield f"components[{component.id}].note", component.note
    for deck in game.decks.values():
        yield f"decks[{deck.id}].name", deck.name
        for card in deck.cards:
            yield f"cards[{card.id}].name", card.name
            for name, value in card.fields.items():
                for path, text in _nested_texts(value, name):
                    yield f"cards[{card.id}].{path}", text
    for index, entry in enumerate(game.setup):
        if isinstance(entry.get("label"), Text):
            yield f"setup[{index}].label", entry["label"]


def _nested_texts(value, path):
    if isinstance(value, Text):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _nested_texts(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nested_texts(item, f"{path}[{index}]")


def rules_texts(game: Game):
    """Every text of the rule sheet's blocks, labelled `rules[block id].field`."""
    if has_rules(game):
        for block in load_rules(game).blocks:
            for field_label, text in block.texts():
                yield f"rules[{block.id}].{field_label}", text


def label_texts(game: Game):
    """The template labels of labels.yaml, labelled `labels[key].text`."""
    for key, text in game.labels.items():
        yield f"labels[{key}].text", text


def printable_texts(game: Game):
    """The texts of boards, player aids and token sheets: `boards[main].name`, `aids[phases].sections[0].text`."""
    printables = game.printables
    if printables is None:
        return
    for collection, items in (("boards", printables.boards), ("aids", printables.aids),
                              ("tokens", printables.tokens)):
        for item_id, item in items.items():
            for name, value in vars(item).items():
                for path, text in _nested_texts(value, name):
                    yield f"{collection}[{item_id}].{path}", text


TEXT_SOURCES = [card_data_texts, label_texts, printable_texts, rules_texts]


def check_translations(game: Game, langs: list[str] | None = None) -> list[Problem]:
    problems = []
    wanted = [lang for lang in game.languages if langs is None or lang in langs]
    for label, text in texts(game):
        missing = [lang for lang in wanted if not text.has(lang)]
        if missing:
            problems.append(Problem(text.file, text.line, f"{label} has no {', '.join(missing)} text",
                                    hint=f"add `{missing[0]}: ...` beside "
                                         + ", ".join(f"{k}" for k in text.values) if text.values else None))
    return problems


def printed_texts(game: Game):
    """The texts of boards, aids and token sheets, labelled `boards[id]...`, `aids[id]...`, `tokens[id]...`."""
    printables = game.printables
    for folder in ("boards", "aids", "tokens"):
        for item_id, item in (getattr(printables, folder, {}) or {}).items() if printables else ():
            for name in ("elements", "title", "sections", "tokens"):
                if hasattr(item, name):
                    yield from _nested_texts(getattr(item, name), f"{folder}[{item_id}].{name}")


def check_placeholders(game: Game) -> list[Problem]:
    """Placeholders in card texts, token labels, aids and boards resolve as in the rules (those are
    checked with the rules)."""
    from generator.checks.placeholders import text_problems

    return text_problems(game, itertools.chain(card_data_texts(game), printed_texts(game)))


def check_rules(game: Game) -> list[Problem]:
    """rules.yaml, if the game has one: its blocks, languages and every placeholder resolve."""
    from generator.render.rulebook import check_rules as raise_rules_problems  # rules render through checks

    try:
        raise_rules_problems(game)
    except InputError as error:
        return error.problems
    return []


# --- setup by player count ---------------------------------------------------------------------

def matches(card: Card, where: dict) -> bool:
    return all(card.fields.get(key) == value for key, value in where.items())


def seat_cards(entry: dict, players: int) -> int:
    if "seats" in entry and entry["seats"]:
        seats = entry["seats"]
        return sum(seats[min(i, len(seats) - 1)] for i in range(players))
    return entry.get("per_player", 0) * players


def deal(game: Game, players: int, problems: list[Problem]) -> PlayerCount:
    result = PlayerCount(players)
    for deck in game.decks.values():
        in_play = deck.copies_at(players)
        result.decks[deck.id] = DeckRow(deck.copies, deck.copies - in_play, in_play)
    for entry in game.setup:
        deck = game.decks.get(entry["deck"])
        if deck is None:
            problems.append(Problem(game.files["game"], entry["_line"], f"setup deals from deck '{entry['deck']}', "
                                    "which does not exist", hint=did_you_mean(entry["deck"], game.decks)))
            continue
        where = entry.get("where", {})
        pool = sum(c.copies(players) for c in deck.cards if matches(c, where))
        wanted = seat_cards(entry, players)
        row = result.decks[deck.id]
        row.dealt += wanted
        result.setup[deck.id] = {"dealt": row.dealt, "pool": pool, "left": row.left,
                                 "rest": entry.get("rest", "deck")}
        if wanted > pool:
            which = f" matching {dict(where)}" if where else ""
            problems.append(Problem(game.files["game"], entry["_line"],
                                    f"with {players} players setup deals {wanted} cards from deck '{deck.id}', "
                                    f"which has only {pool}{which} after removals"))
    return result


# --- declared checks ---------------------------------------------------------------------------

def functions_for(game: Game, players: int | None) -> dict:
    def present(deck_id):
        deck = game.decks.get(deck_id)
        if deck is None:
            raise ExpressionError(f"no deck '{deck_id}'")
        return [(card, card.copies(players)) for card in deck.cards]

    def per(deck_id, field_name):
        totals = Counter()
        for card, copies in present(deck_id):
            if copies:
                totals[card.fields.get(field_name)] += copies
        return dict(totals)

    return {
        "max": max, "min": min, "sum": sum, "len": len, "abs": abs,
        "count": lambda deck_id, field_name, value: sum(n for c, n in present(deck_id)
                                                         if c.fields.get(field_name) == value),
        "values": lambda deck_id, field_name: [c.fields.get(field_name) for c, n in present(deck_id)
                                               for _ in range(n) if c.fields.get(field_name) is not None],
        "per": per,
        "values_of": lambda items, key: [item.get(key) for item in items or [] if isinstance(item, dict)],
        "min_per": lambda deck_id, field_name: min(per(deck_id, field_name).values(), default=0),
        "max_per": lambda deck_id, field_name: max(per(deck_id, field_name).values(), default=0),
    }


def names_for(game: Game, row: PlayerCount) -> dict:
    return {
        "players": row.players,
        "deck": Namespace({d: r.in_play for d, r in row.decks.items()}),
        "total": Namespace({d: r.in_box for d, r in row.decks.items()}),
        "dealt": Namespace({d: r.dealt for d, r in row.decks.items()}),
        "left": Namespace({d: r.left for d, r in row.decks.items()}),
        "removed": Namespace({d: r.removed for d, r in row.decks.items()}),
        "component": Namespace({c.id: c.count for c in game.components}),
        "numbers": Namespace(game.numbers),
        "min_players": game.players[0], "max_players": game.players[1],
    }


def run_declared_checks(game: Game, table: dict[int, PlayerCount]) -> list[Problem]:
    problems = []
    file = game.files["game"]
    for check in game.checks:
        lines = check.get("_lines", {})
        line = check["_line"]
        about = f" ({check['about']})" if check.get("about") else ""
        rows = [row for n, row in table.items() if not check.get("players") or n in check["players"]]
        try:
            if "expect" in check:
                for row in rows:
                    if not evaluate(check["expect"], names_for(game, row), functions_for(game, row.players)):
                        problems.append(Problem(file, lines.get("expect", line), f"with {row.players} players, "
                                                f"`{check['expect']}` does not hold{about}"))
            if "same" in check:
                values = {row.players: evaluate(check["same"], names_for(game, row),
                                                functions_for(game, row.players)) for row in rows}
                if len(set(values.values())) > 1:
                    shown = ", ".join(f"{n} players: {v:g}" if isinstance(v, (int, float)) else f"{n}: {v}"
                                      for n, v in values.items())
                    problems.append(Problem(file, lines.get("same", line), f"`{check['same']}` differs by player count "
                                            f"({shown}){about}"))
            if "unique" in check:
                problems += check_unique(game, check["unique"], file, line)
            if "each" in check:
                problems += check_each(game, check["each"], file, line, about)
            if "distinct_pairs" in check:
                for row in rows:
                    problem = check_distinct_pairs(game, check["distinct_pairs"], row.players)
                    if problem:
                        problems.append(Problem(file, line, problem + about))
        except ExpressionTooLarge as error:
            raise InputError(Problem(file, line, f"check cannot be evaluated: {error}",
                                     hint="an expression computes counts and numbers of cards, nothing larger"))
        except ExpressionError as error:
            problems.append(Problem(file, line, f"check cannot be evaluated: {error}"))
    return problems


def check_unique(game: Game, spec: dict, file: Path, line: int) -> list[Problem]:
    deck = game.decks.get(spec["deck"])
    if deck is None:
        return [Problem(file, line, f"unique: no deck '{spec['deck']}'")]
    seen, problems = {}, []
    for card in deck.cards:
        key = tuple(card.fields.get(f) for f in spec["fields"])
        if key in seen:
            shown = ", ".join(f"{f}={v}" for f, v in zip(spec["fields"], key))
            problems.append(Problem(card.file, card.line_of(spec["fields"][-1]),
                                    f"card '{card.id}' repeats {shown} of card '{seen[key].id}'"))
        seen[key] = card
    return problems


def check_each(game: Game, spec: dict, file: Path, line: int, about: str) -> list[Problem]:
    deck = game.decks.get(spec["deck"])
    if deck is None:
        return [Problem(file, line, f"each: no deck '{spec['deck']}'")]
    problems = []
    for card in deck.cards:
        names = {name: None for name in deck.fields}
        names.update({k: v for k, v in card.fields.items()})
        names.update(id=card.id, count=card.count)
        if not evaluate(spec["expect"], names, functions_for(game, None)):
            problems.append(Problem(card.file, card.line, f"card '{card.id}': `{spec['expect']}` does not hold"
                                    f"{about} (rule at {file.name}:{line})"))
    return problems


def check_distinct_pairs(game: Game, spec: dict, players: int) -> str | None:
    """Can every player take `take` cards so that no two players hold the same combination?"""
    available = functions_for(game, players)["per"](spec["deck"], spec["by"])
    take = spec.get("take", 2)
    combos = list(itertools.combinations_with_replacement(sorted(available, key=str), take))

    def fits(index, chosen, used):
        if len(chosen) == players:
            return True
        for i in range(index, len(combos)):
            need = Counter(combos[i])
            if all(used[k] + n <= available[k] for k, n in need.items()):
                if fits(i + 1, chosen + [combos[i]], used + need):
                    return True
        return False

    if fits(0, [], Counter()):
        return None
    return (f"with {players} players the {sum(available.values())} cards of deck '{spec['deck']}' "
            f"cannot give every player {take} with no two players holding the same {spec['by']}s")

"""One module per `pnpgen` sub-command; each has `register(subparsers)` and `run(args) -> exit code`.

COMMANDS is the one list of them, in the order `pnpgen --help` shows them, with how each one runs. Every
`pnpgen` call reads it before anything heavy (generator/cli.py): keep this module free of imports.
"""


class Command:
    """A sub-command: its module is generator/commands/<name>.py."""

    __slots__ = ("name", "renders", "resident")

    def __init__(self, name: str, resident: bool = False, renders: bool = False):
        self.name = name
        self.resident = resident  # runs in the resident server when one is ready (generator/daemon.py)
        self.renders = renders  # renders with workers: run as the program, it starts their fork server first


COMMANDS = (
    Command("build", resident=True, renders=True),
    Command("validate", resident=True),
    Command("components", resident=True),
    Command("list", resident=True),
    Command("new"),
    Command("i18n", resident=True),
    Command("export", resident=True, renders=True),
    Command("rules", resident=True, renders=True),
    Command("serve"),
    Command("watch"),
    Command("table"),
    Command("schema"),
    Command("daemon"),
)
NAMES = tuple(command.name for command in COMMANDS)
RESIDENT = frozenset(command.name for command in COMMANDS if command.resident)
RENDERING = frozenset(command.name for command in COMMANDS if command.renders)

"""Type values into cells of a spreadsheet with LibreOffice Calc, as a user types them, and save it.

Run by LibreOffice's own Python (the one with the `uno` module, /usr/bin/python3 on Debian with
`python3-uno`): `office_typing.py IN OUT CELL=TEXT...`. Each text goes through Calc's input line
(.uno:EnterString), so the cell's number format decides what it becomes: 008 typed into a text cell stays the
text 008, into a General cell it becomes the number 8. OUT's suffix picks the format (.xlsx, .ods).
"""

import os
import subprocess
import sys
import tempfile
import time

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]

FILTERS = {"xlsx": "Calc MS Excel 2007 XML", "ods": "calc8"}


def prop(name, value):
    found = PropertyValue()
    found.Name, found.Value = name, value
    return found


def connect(port):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(150):
        try:
            return resolver.resolve(f"uno:socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext")
        except Exception:  # noqa: BLE001 - not listening yet
            time.sleep(0.2)
    raise SystemExit("LibreOffice did not start")


def main(source, target, assignments):
    port = 20000 + os.getpid() % 10000
    with tempfile.TemporaryDirectory() as profile:
        office = subprocess.Popen(
            [
                "soffice",
                "--headless",
                "--invisible",
                "--norestore",
                f"-env:UserInstallation={uno.systemPathToFileUrl(profile)}",
                f"--accept=socket,host=127.0.0.1,port={port};urp;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            context = connect(port)
            desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
            url = uno.systemPathToFileUrl(os.path.abspath(source))
            document = desktop.loadComponentFromURL(url, "_blank", 0, (prop("Hidden", True),))
            frame = document.getCurrentController().getFrame()
            dispatcher = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", context)
            for assignment in assignments:
                ref, text = assignment.split("=", 1)
                dispatcher.executeDispatch(frame, ".uno:GoToCell", "", 0, (prop("ToPoint", ref),))
                dispatcher.executeDispatch(frame, ".uno:EnterString", "", 0, (prop("StringName", text),))
            out = os.path.abspath(target)
            document.storeToURL(uno.systemPathToFileUrl(out), (prop("FilterName", FILTERS[out.rsplit(".", 1)[1]]),))
            document.close(True)
        finally:
            office.terminate()
            office.wait()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])

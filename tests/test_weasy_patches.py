"""generator.render.weasy.patches: WeasyPrint with prebuilt C declarations, deferred font copies and fonts subset in
parallel renders the same bytes as the plain import."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

from generator.render.weasy import patches

RENDER = """
import json, sys
from generator.render.weasy import patches
weasyprint = patches.load()
html = ('<html lang="ja"><body style="font-family: Noto Sans CJK JP">'
        '<p>カードを1枚引く。Draw one card.</p><p style="font-weight: bold">報酬 Reward</p>'
        '<p style="font-family: Noto Serif CJK JP">明朝 serif</p></body></html>')
sys.stdout.buffer.write(weasyprint.HTML(string=html).write_pdf())
print(json.dumps({"pycparser": "pycparser" in sys.modules,
                  "parallel": getattr(weasyprint.pdf.build_fonts_dictionary, "subsets_in_parallel", False),
                  "deferred": type(weasyprint.pdf.fonts.Font.__dict__.get("file_content")).__name__}),
      file=sys.stderr)
"""


def render(tmp_path, **env):
    result = subprocess.run([sys.executable, "-c", RENDER], capture_output=True, check=True,
                            env={**os.environ, "XDG_CACHE_HOME": str(tmp_path), **env})
    return result.stdout, json.loads(result.stderr.decode().strip().splitlines()[-1])


def test_prebuilt_declarations_and_deferred_fonts_render_the_same_bytes(tmp_path):
    plain, plain_state = render(tmp_path, PNPGEN_PLAIN_WEASYPRINT="1")
    assert plain_state == {"pycparser": True, "deferred": "NoneType", "parallel": False}
    render(tmp_path)  # builds the cached declarations module
    assert list((tmp_path / "pnpgen" / "ffi").glob("_pnpgen_ffi_*.py"))
    fast, fast_state = render(tmp_path)
    # the C text not parsed again, whole font files not copied, the three fonts subset side by side
    assert fast_state == {"pycparser": False, "deferred": "_FileContent", "parallel": True}
    assert fast == plain
    assert fast.startswith(b"%PDF") and len(fast) > 1000


def test_a_damaged_declarations_module_is_built_again(tmp_path):
    good, _ = render(tmp_path)
    (module,) = (tmp_path / "pnpgen" / "ffi").glob("_pnpgen_ffi_*.py")
    module.write_text("raise ImportError('damaged')\n")
    pdf, _ = render(tmp_path)
    assert pdf == good
    assert "_cffi_backend" in module.read_text()
    _, state = render(tmp_path)
    assert state["pycparser"] is False


def test_split_declarations_takes_the_single_cdef_only():
    source = "import cffi\nffi = cffi.FFI()\nffi.cdef('''int f(int);''')\nlib = ffi.dlopen('c')\n"
    declarations, tree = patches.split_declarations(ast.parse(source))
    assert declarations == "int f(int);"
    assert [type(node).__name__ for node in tree.body] == ["Import", "Assign"]
    twice = source + "ffi.cdef('int g(int);')\n"
    assert patches.split_declarations(ast.parse(twice)) is None
    computed = "import cffi\nffi = cffi.FFI()\nffi.cdef(TEXT)\n"
    assert patches.split_declarations(ast.parse(computed)) is None


def test_whole_font_bytes_are_read_once_and_only_when_asked():
    reads = []

    class Font:
        file_content = patches._FileContent()

    font = Font()
    font.file_content = patches._WholeFont(lambda: reads.append(1) or b"OTTO...")
    assert reads == []
    assert font.file_content[:4] == b"OTTO"
    assert font.file_content == b"OTTO..." and reads == [1]
    font.file_content = b"subset"
    assert font.file_content == b"subset"

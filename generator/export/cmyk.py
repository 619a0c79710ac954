"""Convert a PDF's RGB colour to CMYK through an ICC output profile (LittleCMS, through Pillow).

WeasyPrint writes sRGB colour: `rg`/`RG` operators, DeviceRGB colour spaces chosen with `cs`/`CS`,
axial and radial shadings whose functions interpolate RGB, RGB images, and transparency groups
blending in DeviceRGB. Each becomes DeviceCMYK: colours through an sRGB -> profile transform
(relative colorimetric with black point compensation), except neutral greys and black, which go on the
K plate only (スミ, k = 1 - grey level, no dot-gain compensation) so that grey and black text never
misregisters. Soft masks stay as they are: their grey is opacity, not ink.
Anything else in RGB is an error rather than a silent RGB leftover in a print file.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import pikepdf
from PIL import Image, ImageCms

RGB_SPACES = ("/DeviceRGB", "/CalRGB")
NEUTRAL_SPREAD = 3  # an RGB colour whose channels differ by at most this (of 255) is a grey


class ConversionError(Exception):
    pass


class CmykConverter:
    def __init__(self, profile: Path):
        self.profile_path = profile
        srgb = ImageCms.createProfile("sRGB")
        self.transform = ImageCms.buildTransform(
            srgb,
            ImageCms.getOpenProfile(str(profile)),
            "RGB",
            "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
        )
        self._colours: dict[tuple, list[float]] = {}

    def colour(self, rgb) -> list[float]:
        """One colour (components 0..1) in CMYK (0..1)."""
        key = tuple(round(float(v) * 255) for v in rgb)
        if key not in self._colours:
            if max(key) - min(key) <= NEUTRAL_SPREAD:
                self._colours[key] = [0.0, 0.0, 0.0, round(1 - sum(key) / (3 * 255), 4)]
            else:
                pixel = self.image(Image.new("RGB", (1, 1), key)).getpixel((0, 0))
                assert isinstance(pixel, tuple)  # a CMYK pixel: its four inks
                self._colours[key] = [round(v / 255, 4) for v in pixel]
        return self._colours[key]

    def image(self, image: Image.Image) -> Image.Image:
        converted = ImageCms.applyTransform(image.convert("RGB"), self.transform)
        assert converted is not None  # None only for a conversion in place
        return converted

    # --- the document --------------------------------------------------------------------------------

    def convert(self, pdf: pikepdf.Pdf) -> None:
        masks = _soft_mask_groups(pdf)
        for obj in list(pdf.objects):
            if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)) and obj.objgen not in masks:
                self._walk(obj, top=True)
        for page in pdf.pages:
            self._content_of_page(page)

    def _walk(self, obj, top: bool = False) -> None:
        """Convert `obj` and the direct objects inside it (indirect ones are visited on their own)."""
        if not top and obj.is_indirect:
            return
        if isinstance(obj, pikepdf.Array):
            for item in obj:
                if isinstance(item, (pikepdf.Array, pikepdf.Dictionary)):
                    self._walk(item)
            return
        if "/ShadingType" in obj:
            self._shading(obj)
        elif obj.get("/Subtype") == "/Image":
            self._image(obj)
        elif isinstance(obj, pikepdf.Stream) and _is_content(obj):
            self._content(obj)
        if isinstance(obj.get("/Group"), pikepdf.Dictionary) and obj.Group.get("/CS") in RGB_SPACES:
            obj.Group.CS = pikepdf.Name.DeviceCMYK
        for key, value in obj.items():
            if key not in ("/Function", "/Parent") and isinstance(value, (pikepdf.Array, pikepdf.Dictionary)):
                self._walk(value)

    def _content_of_page(self, page: pikepdf.Page) -> None:
        instructions = pikepdf.parse_content_stream(page)
        converted = self._instructions(instructions)
        if converted is not None:
            page.contents_coalesce()
            page.obj.Contents.write(pikepdf.unparse_content_stream(converted))

    def _content(self, stream: pikepdf.Stream) -> None:
        converted = self._instructions(pikepdf.parse_content_stream(stream))
        if converted is not None:
            stream.write(pikepdf.unparse_content_stream(converted))

    def _instructions(self, instructions) -> list | None:
        """The instructions with RGB colour turned into CMYK, or None when there was none."""
        out, changed = [], False
        rgb_space, saved = {"fill": False, "stroke": False}, []  # is the current colour space RGB?
        for operands, operator in instructions:
            op = str(operator)
            if op == "q":
                saved.append(dict(rgb_space))
            elif op == "Q" and saved:
                rgb_space = saved.pop()
            elif op in ("rg", "RG"):
                operator = pikepdf.Operator("k" if op == "rg" else "K")
                operands, changed = self.colour(operands), True
            elif op in ("cs", "CS"):
                side = "fill" if op == "cs" else "stroke"
                rgb_space[side] = str(operands[0]) in RGB_SPACES
                if rgb_space[side]:
                    operands, changed = [pikepdf.Name.DeviceCMYK], True
            elif op in ("sc", "scn", "SC", "SCN") and rgb_space["fill" if op.islower() else "stroke"]:
                operands = self.colour(operands)
            elif op == "INLINE IMAGE" and str(operands[0].obj.get("/CS", "")) in ("/RGB", *RGB_SPACES):
                raise ConversionError("an inline RGB image is not converted")
            out.append(pikepdf.ContentStreamInstruction(operands, operator))
        return out if changed else None

    def _shading(self, shading) -> None:
        space = shading.get("/ColorSpace")
        if str(space) not in RGB_SPACES:
            return
        if isinstance(shading, pikepdf.Stream):
            raise ConversionError(f"an RGB mesh shading (type {int(shading.ShadingType)}) is not converted")
        shading.ColorSpace = pikepdf.Name.DeviceCMYK
        if "/Background" in shading:
            shading.Background = pikepdf.Array(self.colour(shading.Background))
        shading.Function = self._function(shading.Function)

    def _function(self, function):
        if isinstance(function, pikepdf.Array):
            raise ConversionError("a shading uses one function per RGB component, which is not converted")
        kind = int(function.get("/FunctionType", -1))
        if kind == 2:
            copy = pikepdf.Dictionary(dict(function.items()))
            copy.C0 = pikepdf.Array(self.colour(function.get("/C0", [0, 0, 0])))
            copy.C1 = pikepdf.Array(self.colour(function.get("/C1", [1, 1, 1])))
            return copy
        if kind == 3:
            copy = pikepdf.Dictionary(dict(function.items()))
            copy.Functions = pikepdf.Array([self._function(f) for f in function.Functions])
            return copy
        raise ConversionError(f"a shading uses an RGB function of type {kind}, which is not converted")

    def _image(self, image_obj: pikepdf.Stream) -> None:
        space = image_obj.get("/ColorSpace")
        if space is None or str(space) in ("/DeviceGray", "/DeviceCMYK") or image_obj.get("/ImageMask"):
            return
        if isinstance(space, pikepdf.Array) and str(space[0]) == "/ICCBased" and int(space[1]["/N"]) != 3:
            return
        pixels = pikepdf.PdfImage(image_obj).as_pil_image()
        cmyk = self.image(pixels)
        image_obj.write(zlib.compress(cmyk.tobytes()), filter=pikepdf.Name.FlateDecode)
        image_obj.ColorSpace = pikepdf.Name.DeviceCMYK
        image_obj.BitsPerComponent = 8
        for key in ("/DecodeParms", "/Decode"):
            if key in image_obj:
                del image_obj[key]


def _is_content(stream: pikepdf.Stream) -> bool:
    """Form XObjects and tiling patterns hold content streams."""
    return stream.get("/Subtype") == "/Form" or stream.get("/PatternType") == 1


def _soft_mask_groups(pdf: pikepdf.Pdf) -> set[tuple[int, int]]:
    """The forms that are soft masks (their colours are opacities) and every form drawn inside them."""
    masks: set[tuple[int, int]] = set()
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and isinstance(obj.get("/SMask"), pikepdf.Dictionary):
            group = obj.SMask.get("/G")
            if group is not None:
                _collect_forms(group, masks)
    return masks


def _collect_forms(form, found: set[tuple[int, int]]) -> None:
    if form.objgen in found:
        return
    found.add(form.objgen)
    for xobject in form.get("/Resources", {}).get("/XObject", {}).values():
        if xobject.get("/Subtype") == "/Form":
            _collect_forms(xobject, found)


def profile_description(path: Path) -> str:
    return ImageCms.getProfileDescription(ImageCms.getOpenProfile(str(path))).strip()

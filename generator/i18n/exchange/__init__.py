"""Translation exchange files: gettext PO, XLIFF 1.2 and CSV, written and read back.

One model serves the three formats: a file holds one target language, and each entry a string id
(PO msgctxt, XLIFF trans-unit id, CSV `context` column), the source text, the translation, its state, a
note (what the string is and the size of its box), where it is written and the checks silenced for it.

States as translators' tools read them:
- confirmed (the lock records the current source): PO plain, XLIFF `approved="yes"` `state="signed-off"`
  (translate-toolkit counts it reviewed, Weblate imports it approved), CSV fuzzy False;
- unconfirmed (written by hand since): PO plain, XLIFF `state="translated"` not approved;
- stale: PO `#, fuzzy` with the previous msgid, XLIFF `state="needs-translation"` (Weblate and Poedit
  mark it for editing; translate-toolkit's po2xliff writes the same for fuzzy), CSV fuzzy True;
- missing: empty target, XLIFF `state="new"`.
A check silenced for a string (`ignore-numbers`) is a PO flag (`#, ignore-numbers`, as Weblate's flags),
an XLIFF `<note from="pnpgen-flags">` and a CSV `flags` cell.

Readers are strict: every malformed line, duplicate id or short row is an InputError with its line. A
translation file carries text only: a control character (NUL, carriage return, bell ...; tab and line feed
are text) is refused when read and never written.

`entries` is the model, `formats` reads and writes a file of any format (with the checks they share),
`po`, `xliff` and `csvfile` are the formats.
"""

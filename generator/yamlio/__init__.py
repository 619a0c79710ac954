"""YAML in and out: files read with the position of every value (so that errors name file and line),
large files remembered parsed, and values changed in place and written back with comments and layout kept.

Reading (`read.load_yaml`) uses libyaml's C parser through PyYAML (`parse.fast_load`): ruamel's round-trip
parser is pure Python and was most of a cached rebuild's time. The containers it returns carry an `lc`
like ruamel's (`positions`), so both kinds answer `key_line` and `item_line`. Editing a file uses ruamel
(`round_trip`), which keeps comments and formatting; `edit` changes one value at a time and `writeback`
checks a file's new text reads back before it is written.
"""

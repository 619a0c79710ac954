"""The benchmark deck made by protograf (the peer), from the CSV written by bench/run.py."""

import os

from protograf import Card, Create, Data, Deck, Save, T, rectangle, text

# protograf reads sys.argv itself: the paths come through the environment
csv_file, out = os.environ["BENCH_CSV"], os.environ["BENCH_OUT"]
Create(filename=out, paper="A4", units="mm", margin=5)
Data(filename=csv_file)
Deck(card_size="poker", copy="copies", grid_marks=True)
Card(
    "all",
    rectangle(x=2, y=2, width=59, height=84, stroke="darkgreen", stroke_width=2, fill="ivory"),
    text(text=T("{{title}}"), x=31.5, y=10, font_size=12),
    text(text=T("{{body}}"), x=6, y=20, width=51, height=60, wrap=True, font_size=8, align="left"),
)
Save()

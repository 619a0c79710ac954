"""Card data in spreadsheets: CSV, XLSX and ODS, out of a deck and back in."""

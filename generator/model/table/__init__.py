"""Card data as a table (CSV, XLSX, ODS): its columns, reading and writing the files, rows to cards and back."""

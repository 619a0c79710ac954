"""Card data as a table (CSV, XLSX, ODS): its columns, reading and writing the files, rows to cards and back,
and a sheet's rows written into the deck's YAML (`sync`, for `pnpgen table import`)."""

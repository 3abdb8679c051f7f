// Package csvfile reads delimited text into a model.Table: delimiter and
// header detection (DetectDelimiter, FirstRowIsData), the chunked scanner
// that reads quoted and unquoted fields with line numbers, the encoder
// that turns records into dictionary-encoded columns (also for the
// loaders of other formats: TableBuilder, RowLoader), kinds and missing
// values, and the errors and fixes that name a file's line and column.
//
// It does not own the table, its columns and kinds (model, which it
// imports), nor writing CSV (model/releasedir's AppendCSVRecord and
// CSVWriter), nor the other formats (model/source).
package csvfile

// Package model holds the domain types every part of privlab shares: the
// columnar Table with its columns and kinds, attribute roles and
// identifiers, the generic parameter declarations and exact bounds (the
// methods declare their own parameters), errors with their fixes (Fix),
// input limits, seeded randomness, file stamps and crash reports. It
// imports nothing else of privlab and nothing of the user interface.
//
// The jobs built on these types are sub-packages, each importing model
// and never imported by it:
//
//	model/csvfile     delimited text read into a Table
//	model/query       the query language: parsing, binding, answers
//	model/hierarchy   generalization hierarchies: the tree, its file, builders
//	model/strictjson  JSON read one way only (imports nothing of privlab)
//	model/releasedir  release directories: writing, recovering, reading
//	model/source      the other table formats (Excel, Parquet, SQLite)
package model

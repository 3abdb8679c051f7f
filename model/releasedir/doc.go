// Package releasedir owns a release directory on disk (SPEC: the files
// an export writes): the Release and its Manifest, Audit record, figures
// and details; writing one atomically (Write: temporary directory,
// owner marker, lock, verification, report.md, no-replace rename, and the
// recovery of leftovers of an interrupted write); reading one back
// strictly (ReadManifest, ReadAudit, OpenFile, LoadTable) and the
// CSV text of its data files (AppendCSVRecord, CSVWriter).
//
// It does not own the table, roles, parameters or limits (model, which it
// imports), nor the strict JSON reading it relies on (model/strictjson),
// nor what a method puts in a release (algorithms/release).
package releasedir

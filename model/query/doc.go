// Package query owns privlab's query language (SPEC: the workload's
// COUNT/SUM/AVG/MIN/MAX queries with WHERE predicates): the lexer and
// parser (Parse, Error with its caret), binding a query to a table's
// columns and answering it exactly (Answer, Matcher), and Writer, which
// builds query text that Parse reads back field for field.
//
// It does not own the table it answers over (model), the hierarchies
// whose subdomains are matched against predicates (model/hierarchy
// imports this package, never the other way), nor the workloads made of
// queries (algorithms/workload).
package query

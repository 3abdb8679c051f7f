// Package hierarchy owns the generalization hierarchies of SPEC 2.3: the
// Hierarchy tree over an attribute's domain (leaves, subdomains, ranges,
// ancestors), reading one from a hierarchy CSV file (Parse, ReadFile) and
// the builders (Flat, Masking, Intervals, Balanced, and Build, which picks
// one from a spec such as "intervals:5").
//
// It does not own the table or its columns (model), nor the query
// language whose predicates a subdomain is matched against (model/query).
package hierarchy

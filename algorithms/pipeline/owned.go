package pipeline

import (
	"privlab/model/releasedir"
	"privlab/model/source"
)

// InputFile is the file the project reads that path names (its input,
// public or population table, a hierarchy file, a parameter's file, of
// any method it holds settings for), "" when path is none of them: a
// file written for the user (a saved project, a CSV of results) must
// never replace one.
func (p Project) InputFile(path string) string {
	var hit string
	p.mapPaths(func(v string, _ bool) string {
		if f := source.Path(v); hit == "" && releasedir.SamePath(f, path) {
			hit = f
		}
		return v
	})
	return hit
}

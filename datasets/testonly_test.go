package datasets

// EmbeddedHierarchy returns the text of an embedded hierarchy file (the
// FILE of an "embedded:FILE" spec).
func EmbeddedHierarchy(file string) ([]byte, error) {
	return files.ReadFile("hierarchies/" + file)
}

package query

// In adds column IN (the values of the column's codes): a categorical
// column's list also carries the codes, so that binding it to that
// column sets them without reading the dictionary (codeHint).
func (w *Writer) In(l *Literals, codes []uint32) {
	w.InInto(l, codes, make([]Literal, len(codes)))
}

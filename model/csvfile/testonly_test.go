package csvfile

// String is the mode as ParseHeaderMode reads it ("" for detect).
func (m HeaderMode) String() string {
	switch m {
	case HeaderYes:
		return "yes"
	case HeaderNo:
		return "no"
	}
	return ""
}

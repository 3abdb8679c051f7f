package pipeline

import (
	"fmt"
	"maps"
	"slices"

	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/releasedir"
)

// HierarchyPin records which hierarchy a column ran with, so that a saved
// project says what it used and reopening it notices when that changed
// (issue 35.9): a hierarchy file beside the data appearing later, or a
// hierarchy file edited, changes the groups without any setting changing.
type HierarchyPin struct {
	// File and SHA256 name a hierarchy file and its digest.
	File   string `json:"file,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	// Builder is the builder spec used when no file was (auto, flat,
	// intervals:5, ...).
	Builder string `json:"builder,omitempty"`
	// Built is what the builder made for this column, with its
	// parameters (auto: intervals:10 for a numeric column, flat for a
	// categorical one); empty until a run resolved it.
	Built string `json:"built,omitempty"`
}

// Pins are the hierarchies the project's used columns get now: a file
// with its digest, or a builder. With the table t each builder is also
// resolved (Built); without it (t nil) builders are recorded as set.
func (e Env) Pins(p Project, t *model.Table) map[string]HierarchyPin {
	used := p.Roles.Used()
	if len(used) == 0 {
		return nil
	}
	out := make(map[string]HierarchyPin, len(used))
	for _, attr := range used {
		spec := e.pinSpec(p, attr, t)
		switch {
		case spec == "":
			continue
		case IsHierarchyFile(spec):
			sum, err := releasedir.FileSHA256(spec)
			if err != nil {
				sum = ""
			}
			out[attr] = HierarchyPin{File: spec, SHA256: sum}
			continue
		}
		pin := HierarchyPin{Builder: spec}
		if t != nil {
			pin.Built = BuiltSpec(spec, t.Column(attr))
		}
		out[attr] = pin
	}
	return out
}

// pinSpec is the hierarchy spec attr gets: HierarchySpec when the table
// is there, else the user's spec, a file beside the data, or auto for a
// quasi-identifier; "" when that needs the table or the dataset (a
// dataset's default hierarchy, the sensitive attribute's default).
func (e Env) pinSpec(p Project, attr string, t *model.Table) string {
	if t != nil {
		if c := t.Column(attr); c != nil {
			return e.HierarchySpec(p, c, attr == p.Roles.SA)
		}
	}
	if spec := p.Hierarchies[attr]; spec != "" {
		return spec
	}
	if _, isDataset := DatasetName(p.Input); isDataset || attr == p.Roles.SA {
		return ""
	}
	if f := FoundHierarchy(p.Input, attr); f != "" {
		return f
	}
	return "auto"
}

// BuiltSpec names the builder, with its parameters, that spec makes for
// column c: auto is intervals of hierarchy.AutoWidth on a numeric column and
// flat on a categorical one, a bare intervals its automatic width.
func BuiltSpec(spec string, c *model.Column) string {
	if c == nil {
		return spec
	}
	switch spec {
	case "auto", "":
		if c.Kind != model.Numeric {
			return "flat"
		}
		return "intervals:" + model.FormatNumber(hierarchy.AutoWidth(c))
	case "intervals", "interval":
		if c.Kind == model.Numeric {
			return "intervals:" + model.FormatNumber(hierarchy.AutoWidth(c))
		}
	}
	return spec
}

// withPins returns the project with the pins of its hierarchies as they
// are now (files hashed again), keeping a builder's resolution from the
// last run when the builder is unchanged: Save writes them.
func (p Project) withPins() Project {
	pins := Env{}.Pins(p, nil)
	for attr, pin := range pins {
		if old, ok := p.Pins[attr]; ok && pin.Builder != "" && old.Builder == pin.Builder {
			pin.Built = old.Built
			pins[attr] = pin
		}
	}
	p.Pins = pins
	return p
}

// PinWarnings compare the hierarchies a saved project ran with (its
// Pins) with those it gets now: a hierarchy file changed, gone, or
// replaced by another, a hierarchy file beside the data that was not
// there, or a builder that now builds something else for the column (t
// given). Each names the column and the file; none when the project pins
// nothing (saved before pins were recorded).
func (e Env) PinWarnings(p Project, t *model.Table) []string {
	if len(p.Pins) == 0 {
		return nil
	}
	return pinWarnings(p.Pins, e.Pins(p, t))
}

// pinWarnings compare the pins a project was saved with to those it gets
// now, column by column in name order.
func pinWarnings(saved, now map[string]HierarchyPin) []string {
	var out []string
	for _, attr := range slices.Sorted(maps.Keys(saved)) {
		cur, ok := now[attr]
		if !ok {
			continue // no longer used
		}
		if msg := pinChange(attr, saved[attr], cur); msg != "" {
			out = append(out, msg)
		}
	}
	return out
}

// pinChange says how the hierarchy of attr changed from pin was to now
// ("" when it did not).
func pinChange(attr string, was, now HierarchyPin) string {
	switch {
	case was == now:
		return ""
	case was.File != "" && now.File == was.File && now.SHA256 == "":
		return fmt.Sprintf("column %s: hierarchy file %s, which the project ran with, cannot be read now", attr, was.File)
	case was.File != "" && now.File == was.File && was.SHA256 != "" && now.SHA256 != was.SHA256:
		return fmt.Sprintf("column %s: hierarchy file %s changed since the project was saved (sha256 %.12s…, was %.12s…): the groups may differ", attr, was.File, now.SHA256, was.SHA256)
	case was.File != "" && now.File == was.File:
		return "" // digests not both known
	case was.File != "" && now.File != "":
		return fmt.Sprintf("column %s: the hierarchy is now file %s; the project ran with file %s", attr, now.File, was.File)
	case was.File != "":
		return fmt.Sprintf("column %s: the project ran with hierarchy file %s; it now gets builder %s", attr, was.File, now.Builder)
	case now.File != "":
		return fmt.Sprintf("column %s: hierarchy file %s now sits beside the data and is used; the project ran with builder %s", attr, now.File, builtOr(was))
	case now.Builder == was.Builder && was.Built != "" && now.Built != "" && now.Built != was.Built:
		return fmt.Sprintf("column %s: builder %s now makes %s; the project ran with %s", attr, was.Builder, now.Built, was.Built)
	case now.Builder != was.Builder:
		return fmt.Sprintf("column %s: the hierarchy is now builder %s; the project ran with %s", attr, now.Builder, builtOr(was))
	}
	return ""
}

// builtOr names a builder pin with its resolution when known.
func builtOr(pin HierarchyPin) string {
	if pin.Built != "" && pin.Built != pin.Builder {
		return pin.Builder + " (" + pin.Built + ")"
	}
	return pin.Builder
}

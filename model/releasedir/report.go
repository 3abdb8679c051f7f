package releasedir

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"privlab/model"
)

// RenderReport renders report.md from a manifest alone: what was published,
// by which method, the parameters and every figure the manifest states,
// what a passing check certifies, the worst cases, the verification and
// the files (SPEC 7.1). Because the report is a function of the manifest,
// `privlab check` regenerates it and compares: an edited report fails, and
// the manifest's figures are themselves recomputed from the data files.
// The manifest goes through JSON first, so the report reads the same
// whether it is rendered at export or from the file (manifestAsRead).
func RenderReport(m *Manifest) string {
	c := manifestAsRead(m)
	return renderManifest(&c)
}

// renderManifest renders report.md from a manifest as read.
func renderManifest(m *Manifest) string {
	c := *m
	var files []FileEntry
	for _, f := range c.Files {
		if f.Name != "report.md" {
			files = append(files, f)
		}
	}
	var w strings.Builder
	title := c.Title
	if title == "" {
		title = c.Method
	}
	fmt.Fprintf(&w, "# privlab release: %s\n\n", mdText(title))
	fmt.Fprintf(&w, "Method: %s (%s)", mdText(c.Method), mdText(c.Paper))
	if c.Variant != "" {
		fmt.Fprintf(&w, ", variant %s", mdText(c.Variant))
	}
	w.WriteString(".\n\n| | |\n|---|---|\n")
	row := func(k, v string) { fmt.Fprintf(&w, "| %s | %s |\n", mdText(k), mdText(v)) }
	row("quasi-identifiers", strings.Join(c.QIs, ", "))
	if c.SA != "" {
		row("sensitive attribute", c.SA)
	}
	row("dropped columns", strings.Join(c.Dropped, ", "))
	row("records in / published / suppressed", fmt.Sprintf("%d / %d / %d", c.RowsIn, c.Published, c.Suppressed))
	if c.MissingValues != "" {
		row("missing values", c.MissingValues)
	}
	row("groups", strconv.Itoa(c.Groups))
	for _, k := range sortedKeys(c.Parameters) {
		row("parameter "+k, c.Parameters[k])
	}
	for _, f := range c.Utility {
		row(f.Name, reportNumber(f.Value))
	}
	var details any
	if len(c.Details) > 0 {
		var err error
		if details, err = decodeDetails(c.Details); err != nil {
			details = nil // not JSON: the strict reading has refused it already
		}
	}
	for _, kv := range flatten("", details) {
		row(kv[0], kv[1])
	}
	w.WriteString("\n## Privacy\n\n")
	if c.Certifies != "" {
		w.WriteString("A release that passes its checks certifies that " + mdText(c.Certifies) + ".\n\n")
	}
	for _, f := range c.WorstCases {
		mark := "holds"
		if !f.OK {
			mark = "FAILS"
		}
		fmt.Fprintf(&w, "- %s: %s (limit %s) — %s\n", mdText(f.Name), reportNumber(f.Value), mdText(f.Limit), mark)
	}
	w.WriteString("\n")
	renderPlainWords(&w, &c)
	renderRisk(&w, c.Risk)
	renderWorkload(&w, c.WorkloadError)
	if c.Verified {
		w.WriteString("Independent verification from the published files: **passed**.\n\n")
	} else if len(c.Checks) > 0 {
		w.WriteString("Independent verification from the published files: **FAILED**.\n\n")
	}
	for _, l := range c.Checks {
		fmt.Fprintf(&w, "- %s\n", mdText(l))
	}
	if c.AcceptedBad {
		w.WriteString("\n**The user accepted a release that fails its privacy requirement.**\n")
	}
	renderNotes(&w, c.Notes)
	renderAdvisor(&w, c.Advisor)
	w.WriteString("\n## Files\n\n")
	for _, f := range files {
		fmt.Fprintf(&w, "- %s: %d rows, sha256 %s\n", mdText(f.Name), f.Rows, mdText(f.SHA256))
	}
	return w.String()
}

// manifestAsRead is m written as JSON and read back (m itself when it
// cannot be written). The details go through as they are: they are read
// through decodeDetails, which takes them in any layout, so the bulk of a
// wide release's manifest is not written and parsed once more (valid
// JSON details read back are the same document; invalid ones fail the
// writing, as before).
func manifestAsRead(m *Manifest) Manifest {
	if len(m.Details) > 0 && !json.Valid(m.Details) {
		return *m
	}
	light := *m
	light.Details = nil
	var c Manifest
	b, err := json.Marshal(&light)
	if err != nil || json.Unmarshal(b, &c) != nil {
		return *m
	}
	c.Details = m.Details
	return c
}

// renderRisk writes the table of the figures every release gets.
func renderRisk(w *strings.Builder, risk []Figure) {
	if len(risk) == 0 {
		return
	}
	w.WriteString("## Risk and utility (the figures every method's release gets)\n\n| figure | value | what it measures |\n|---|---|---|\n")
	for _, f := range risk {
		name := f.Name
		if f.Limit != "" {
			name += " (above " + f.Limit + ")"
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", mdText(name), reportNumber(f.Value), mdText(f.Help))
	}
	w.WriteString("\n")
}

// renderWorkload writes the workload error's section.
func renderWorkload(w *strings.Builder, e *WorkloadError) {
	if e == nil {
		return
	}
	w.WriteString("## Utility\n\n")
	if e.Queries == 0 {
		w.WriteString("No random workload was measured (0 queries were asked for).\n\n")
		return
	}
	what := "mean relative error"
	if e.Bounds {
		what = "mean bound width over the true answer (the answers are deterministic bounds)"
	}
	fmt.Fprintf(w, "A random workload of %d %s queries (seed %d) answered on the input and on the release: %s %s over the %d queries with a non-empty answer; an estimate of every answer (bounds: their middle) is off by %s on average.\n\n",
		e.Queries, mdText(e.Shape), e.Seed, what, reportNumber(e.Mean), e.Measured, reportNumber(e.EstErr))
}

// renderNotes quotes the run's notes under the producer's-words label.
func renderNotes(w *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	w.WriteString("\n## Notes from the run\n\nThe producer's words about how the release was made; `privlab check` does not prove them.\n")
	for _, n := range notes {
		fmt.Fprintf(w, "\n> %s\n", mdBlock(n))
	}
}

// flatten lists a JSON value as key/value rows: objects by sorted key
// (nested keys joined with "."), arrays of scalars joined with ", " (long
// ones cut after 12 items), short arrays of flat objects one row per
// object, anything larger as a count (the manifest holds it whole).
func flatten(prefix string, v any) [][2]string {
	var out [][2]string
	switch x := v.(type) {
	case nil:
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, flatten(join(prefix, k), x[k])...)
		}
	case []any:
		if parts, ok := scalars(x); ok {
			if len(parts) > 12 {
				parts = append(parts[:12], fmt.Sprintf("… (%d in all)", len(x)))
			}
			out = append(out, [2]string{prefix, strings.Join(parts, ", ")})
			break
		}
		if len(x) <= 12 {
			flat := true
			var rows [][2]string
			for i, e := range x {
				obj, isObj := e.(map[string]any)
				if !isObj {
					flat = false
					break
				}
				var kv []string
				for _, k := range sortedKeysAny(obj) {
					sv, isScalar := scalarOf(obj[k])
					if !isScalar {
						flat = false
						break
					}
					kv = append(kv, k+" "+sv)
				}
				rows = append(rows, [2]string{prefix + " " + strconv.Itoa(i+1), strings.Join(kv, ", ")})
			}
			if flat {
				out = append(out, rows...)
				break
			}
		}
		out = append(out, [2]string{prefix, fmt.Sprintf("%d entries (in manifest.json)", len(x))})
	default:
		out = append(out, [2]string{prefix, scalar(x)})
	}
	return out
}

// scalars renders an array of scalars (false if an item is not one).
func scalars(x []any) ([]string, bool) {
	parts := make([]string, 0, len(x))
	for _, e := range x {
		s, ok := scalarOf(e)
		if !ok {
			return nil, false
		}
		parts = append(parts, s)
	}
	return parts, true
}

func scalarOf(v any) (string, bool) {
	switch v.(type) {
	case map[string]any, []any:
		return "", false
	}
	return scalar(v), true
}

func sortedKeysAny(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

func scalar(v any) string {
	switch x := v.(type) {
	case float64:
		return reportNumber(x)
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// reportNumber writes a figure exactly (shortest round-trip form).
// reportNumber writes a figure for a reader: integers whole, other
// values to six significant digits in fixed notation (5.000000000000001
// reads 5, 8467.48670906719 reads 8467.49, 2.841e-05 reads 0.00002841,
// a residue of 9.3e-14 reads 0; FormatFixed); the manifest keeps every
// digit and check compares there.
func reportNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "—"
	case math.IsInf(x, 0):
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return model.FormatFixed(x, 6)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mdText escapes a value for one line of report.md, so that nothing a
// manifest holds can change the report's structure: control characters
// (newlines above all) and the line and paragraph separators are written
// as visible escapes (\n, \u2028), and every character Markdown reads as
// markup (pipes, emphasis, links, code, HTML, headings) is backslash-
// escaped. An underscore inside a word stays as it is: Markdown does not
// read it as emphasis there (sum_of_ranges); so does a '>' inside a line
// (only a line's first one quotes, see mdBlock).
func mdText(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case model.Invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case r == '_':
			if i > 0 && i < len(rs)-1 && wordRune(rs[i-1]) && wordRune(rs[i+1]) {
				b.WriteRune(r)
			} else {
				b.WriteString(`\_`)
			}
		case strings.ContainsRune("\\`*[]<|#~&", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdBlock escapes a value that starts a line of report.md (a note, the
// plain-words summary): mdText, and a leading character that would make
// the line a list item, a heading, a quote or a rule is escaped too.
func mdBlock(s string) string {
	t := mdText(s)
	lead := strings.TrimLeft(t, " ")
	if lead != t {
		t = lead // leading blanks would make an indented code block
	}
	if t != "" && strings.ContainsRune("-+=:>", rune(t[0])) {
		return `\` + t
	}
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	if digits > 0 && digits < len(t) && (t[digits] == '.' || t[digits] == ')') {
		return t[:digits] + `\` + t[digits:]
	}
	return t
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

package ui

import (
	"os"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/releasedir"
	"privlab/model/source"
	"privlab/ui/common"
	"privlab/ui/session"
)

// openReleaseMsg asks the App to read a release (a directory picked
// with ctrl+o): the original is found from the audit record beside it.
type openReleaseMsg struct{ dir string }

// releaseOpenedMsg is a release read and checked (seq: the App's release
// sequence number, so a release opened later wins). original and input
// are the original it was checked against and the project that loads it
// (nil and empty when it was checked from its files alone).
type releaseOpenedMsg struct {
	seq      int
	rel      *session.Received
	err      error
	original *model.Table
	input    pipeline.Project
}

// openReleaseCmd reads and checks a release in the background against
// the original the user gave (nil: from its files alone).
func openReleaseCmd(dir string, original *model.Table, seq int) tea.Cmd {
	return common.Guarded(func() tea.Msg {
		against := "from its files alone"
		if original != nil {
			against = "against " + original.Name
		}
		return readRelease(dir, original, nil, against, seq)
	}, func(err error) tea.Msg { return releaseOpenedMsg{seq: seq, err: err} })
}

// receiveCmd reads a release picked in the workbench. Whatever table is
// loaded has nothing to do with it: the original is the input its audit
// record names, used only when it is there and is that input (a file
// with the SHA-256 the record holds, or the same embedded dataset with
// the same rows and seed); otherwise the release is checked from its
// files alone, and the pane says why.
func receiveCmd(env pipeline.Env, dir string, seq int) tea.Cmd {
	return common.Guarded(func() tea.Msg {
		orig, pub, in, why := auditedOriginal(env, dir)
		against := "from its files alone (" + why + ")"
		if orig != nil {
			against = "against its input " + in.Input + ", found through the audit record"
			if pub != nil {
				against += ", with the public table " + in.Public
			}
		}
		msg := readRelease(dir, orig, pub, against, seq)
		if m, ok := msg.(releaseOpenedMsg); ok && orig != nil {
			m.original, m.input = orig, in
			return m
		}
		return msg
	}, func(err error) tea.Msg { return releaseOpenedMsg{seq: seq, err: err} })
}

// readRelease opens and checks a release.
func readRelease(dir string, original, public *model.Table, against string, seq int) tea.Msg {
	ans, man, err := pipeline.OpenRelease(dir)
	if err != nil {
		return releaseOpenedMsg{seq: seq, err: err}
	}
	r := session.ReadReceived(dir, man, ans, original, public, against)
	return releaseOpenedMsg{seq: seq, rel: r, original: original}
}

// auditedOriginal loads the input (and public table) the audit record
// beside dir names, when it is there and is that input; else it says why
// not.
func auditedOriginal(env pipeline.Env, dir string) (orig, pub *model.Table, in pipeline.Project, why string) {
	audit, err := env.Cache.ReadAudit(dir)
	made, ok := env.Cache.AuditProject(dir)
	if err != nil || !ok || made.Input == "" {
		return nil, nil, in, "no audit record beside it names its input"
	}
	in = pipeline.Project{Input: made.Input, Rows: made.Rows, DataSeed: made.DataSeed, Columns: made.Columns,
		Delimiter: made.Delimiter, Kinds: made.Kinds, MaxCell: made.MaxCell, Missing: made.Missing,
		Header: made.Header, MissingValues: made.MissingValues,
		Roles: made.Roles, Public: made.Public, PublicRows: made.PublicRows, Method: made.Method}
	if _, isDataset := pipeline.DatasetName(made.Input); !isDataset {
		path, found := findInput(made.Input, dir)
		if !found {
			return nil, nil, in, "its input " + made.Input + " is not here"
		}
		if audit.InputSHA256 == "" {
			return nil, nil, in, "the audit record holds no SHA-256 to confirm " + made.Input + " is its input"
		}
		if sum, err := releasedir.FileSHA256(source.Path(path)); err != nil || sum != audit.InputSHA256 {
			return nil, nil, in, made.Input + " has changed since the export (its SHA-256 differs)"
		}
		in.Input = path
	}
	t, err := env.LoadTable(in)
	if err != nil {
		return nil, nil, in, "its input " + made.Input + " does not load: " + firstLine(common.WithoutHint(err))
	}
	if made.Public != "" {
		if path, found := findInput(made.Public, dir); found {
			in.Public = path
		}
		policy := model.DropMissing
		if man, err := releasedir.ReadManifest(dir); err == nil {
			if p, err := model.ParseMissingPolicy(man.MissingValues); err == nil {
				policy = p
			}
		}
		if p, err := env.LoadPublic(in, t, policy); err == nil {
			pub = p
		}
	}
	return t, pub, in, ""
}

// findInput resolves an input path the audit record gives: as it is
// (relative to the working directory, as it was at export), else relative
// to the folder that holds the release. dataset:NAME stays as it is.
func findInput(spec, dir string) (string, bool) {
	if _, isDataset := pipeline.DatasetName(spec); isDataset {
		return spec, true
	}
	path, part := source.Split(spec) // FILE.db:TABLE is found as FILE
	with := func(p string) string {
		if part == "" {
			return p
		}
		return p + ":" + part
	}
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return spec, true
	}
	if !filepath.IsAbs(path) {
		alt := filepath.Join(filepath.Dir(filepath.Clean(dir)), path)
		if st, err := os.Stat(alt); err == nil && !st.IsDir() {
			return with(alt), true
		}
	}
	return spec, false
}

// isRelease reports whether dir is a release directory.
func isRelease(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "manifest.json"))
	return err == nil && !st.IsDir()
}

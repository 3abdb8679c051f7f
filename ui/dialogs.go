package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/filepicker"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
	"privlab/model/source"
	"privlab/ui/cli/clitext"
	"privlab/ui/common"
	"privlab/ui/components"
)

// confirmDialog asks a yes/no question. For the quit question a second
// ctrl+c means yes.
type confirmDialog struct {
	st    *State
	text  string
	onYes func() tea.Cmd
	ctrlC bool // ctrl+c answers yes
}

func newConfirmDialog(st *State, text string, onYes func() tea.Cmd) *confirmDialog {
	return &confirmDialog{st: st, text: text, onYes: onYes}
}

func (d *confirmDialog) update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return false, nil
	}
	keys := d.st.Keys
	switch {
	case key.Matches(k, keys.Yes), d.ctrlC && key.Matches(k, keys.ForceQuit):
		return true, d.onYes()
	case key.Matches(k, keys.No), key.Matches(k, keys.ForceQuit):
		return true, nil
	}
	return false, nil
}

func (d *confirmDialog) help() []key.Binding {
	k := d.st.Keys
	if d.ctrlC {
		return []key.Binding{k.Yes, k.No, common.Described(k.ForceQuit, common.KeyName(k.ForceQuit), "quit")}
	}
	return []key.Binding{k.Yes, k.No, common.Described(k.ForceQuit, common.KeyName(k.ForceQuit), "no")}
}

func (d *confirmDialog) view(w, h int) string {
	return centered(d.st.Styles.Dialog.Render(model.TermLines(d.text)+"\n\n"+d.st.Styles.Muted.Render(common.KeyName(d.st.Keys.Yes)+" yes · "+common.KeyName(d.st.Keys.No)+" no")), w, h)
}

// centered puts a box in the middle of a w x h area.
func centered(box string, w, h int) string {
	lines := strings.Split(box, "\n")
	top := (h - len(lines)) / 2
	if top < 0 {
		top = 0
	}
	var out []string
	for i := 0; i < top; i++ {
		out = append(out, "")
	}
	bw := 0
	for _, l := range lines {
		if x := common.LenCells(l); x > bw {
			bw = x
		}
	}
	left := (w - bw) / 2
	if left < 0 {
		left = 0
	}
	for _, l := range lines {
		out = append(out, strings.Repeat(" ", left)+l)
	}
	return strings.Join(out, "\n")
}

// saveDialog asks where to save the project (ctrl+s the first time, S
// every time).
type saveDialog struct {
	st      *State
	input   textinput.Model
	err     string
	as      bool   // save as another file
	replace string // an existing file the user is asked to replace
}

func newSaveDialog(st *State, as bool) *saveDialog {
	in := textinput.New()
	in.Prompt = "save project to: "
	in.SetValue("project.json")
	if st.ProjectPath != "" {
		in.SetValue(st.ProjectPath)
	}
	in.CursorEnd()
	in.Focus()
	in.Width = 40
	return &saveDialog{st: st, input: in, as: as}
}

func (d *saveDialog) update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if ok && d.replace != "" {
		// y replaces the file; n or esc goes back to the name.
		switch {
		case key.Matches(k, d.st.Keys.Yes):
			return d.write(d.replace)
		case key.Matches(k, d.st.Keys.No):
			d.replace = ""
		}
		return false, nil
	}
	if ok {
		switch {
		case key.Matches(k, d.st.Keys.Back):
			return true, nil
		case key.Matches(k, d.st.Keys.Enter):
			path := strings.TrimSpace(d.input.Value())
			if path == "" {
				d.err = "give a file name"
				return false, nil
			}
			if err := d.st.saveTarget(path); err != nil {
				d.err = common.EditorText(err)
				return false, nil
			}
			if _, err := os.Lstat(path); err == nil && !releasedir.SamePath(path, d.st.ProjectPath) {
				d.replace, d.err = path, ""
				return false, nil
			}
			return d.write(path)
		}
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return false, cmd
}

// write saves the project to path, the dialog staying open on a failure.
func (d *saveDialog) write(path string) (bool, tea.Cmd) {
	d.replace = ""
	if err := d.st.save(path); err != nil {
		d.err = common.EditorText(err)
		return false, nil
	}
	return true, nil
}

func (d *saveDialog) help() []key.Binding {
	if d.replace != "" {
		return []key.Binding{common.Described(d.st.Keys.Yes, common.KeyName(d.st.Keys.Yes), "replace it"), common.Described(d.st.Keys.No, common.KeyName(d.st.Keys.No), "choose another name")}
	}
	return []key.Binding{common.Described(d.st.Keys.Enter, common.KeyName(d.st.Keys.Enter), "save"), common.Described(d.st.Keys.Back, common.KeyName(d.st.Keys.Back), "cancel")}
}

func (d *saveDialog) view(w, h int) string {
	title := "Save the whole configuration as a project file"
	if d.as {
		title = "Save the project as another file (" + common.KeyName(d.st.Keys.Save) + " then writes to it)"
	}
	// The text wraps inside the box (border and padding take 4 cells), so
	// a long refusal or file name does not push it past the terminal.
	bw := min(w-4, 76)
	body := common.Wrap(title+"\n("+clitext.RunConfigCommand("")+" reads it; paths in it are relative to its folder)", bw) + "\n\n" + d.input.View()
	if d.err != "" {
		body += "\n" + d.st.Styles.Error.Render(common.Wrap(d.err, bw))
	}
	if d.replace != "" {
		body += "\n" + d.st.Styles.Error.Render(common.Wrap(d.replace+" exists: replace it with the project? ("+common.YesNo(d.st.Keys)+")", bw))
		body += "\n\n" + d.st.Styles.Muted.Render(common.KeyName(d.st.Keys.Yes)+" replace · "+common.KeyName(d.st.Keys.No)+" choose another name")
		return centered(d.st.Styles.Dialog.Render(body), w, h)
	}
	body += "\n\n" + d.st.Styles.Muted.Render(common.KeyName(d.st.Keys.Enter)+" save · "+common.KeyName(d.st.Keys.Back)+" cancel")
	return centered(d.st.Styles.Dialog.Render(body), w, h)
}

// fileDialog picks a CSV file with bubbles/filepicker: the input table
// or a project (ctrl+o), or the file another setting names (onPick).
type fileDialog struct {
	st     *State
	picker filepicker.Model
	title  string
	onPick func(path string)
	typing components.LineEditor // a path typed instead of picked
}

// openDialogMsg asks the App to show a dialog (a pane cannot).
type openDialogMsg struct{ d dialog }

// newPickDialog picks a file for onPick.
func newPickDialog(st *State, title string, onPick func(path string)) *fileDialog {
	d := newFileDialog(st)
	d.picker.AllowedTypes = []string{".csv", ".tsv", ".txt", ".data"}
	d.title, d.onPick = title, onPick
	return d
}

func newFileDialog(st *State) *fileDialog {
	fp := filepicker.New()
	fp.AllowedTypes = append(source.Extensions(), ".json")
	if wd, err := os.Getwd(); err == nil {
		fp.CurrentDirectory = wd
	}
	if st.LastDir != "" {
		fp.CurrentDirectory = st.LastDir
	}
	fp.ShowHidden = false
	fp.ShowPermissions, fp.ShowSize = false, false
	fp.AutoHeight = false
	fp.SetHeight(14)
	return &fileDialog{st: st, picker: fp, title: "Open a data file (.csv .xlsx .parquet .db …), a project.json or a release folder", typing: components.NewLineEditor(60)}
}

// picked acts on a chosen path: a project opens, a release directory (or
// its manifest.json) is received, a data file goes through the import
// wizard (or to onPick).
func (d *fileDialog) picked(path string) (bool, tea.Cmd) {
	d.st.UseFolder(common.DirOf(path))
	if d.onPick != nil {
		d.onPick(path)
		return true, nil
	}
	if filepath.Base(path) == "manifest.json" && isRelease(filepath.Dir(path)) {
		dir := filepath.Dir(path)
		d.st.UseFolder(common.DirOf(dir))
		return true, func() tea.Msg { return openReleaseMsg{dir: dir} }
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if !isRelease(path) {
			// Not a release (no manifest.json): browse it.
			d.picker.CurrentDirectory = path
			return false, d.picker.Init()
		}
		d.st.UseFolder(common.DirOf(filepath.Clean(path)))
		return true, func() tea.Msg { return openReleaseMsg{dir: path} }
	}
	if dir, ok := strings.CutSuffix(path, ".audit.json"); ok {
		// An audit record (DIR.audit.json) is private and beside its
		// release: picking it opens the release it audits.
		if !isRelease(dir) {
			d.st.Fail(fmt.Errorf("%s is an audit record (private: it maps a release's rows to the input's), not a project, and %s is not a release beside it; open a release folder or a project.json", path, dir))
			return true, nil
		}
		d.st.UseFolder(common.DirOf(filepath.Clean(dir)))
		return true, func() tea.Msg { return openReleaseMsg{dir: dir} }
	}
	if strings.HasSuffix(strings.ToLower(path), ".json") {
		p, err := pipeline.LoadProject(path)
		if err != nil {
			d.st.Fail(err)
			return true, nil
		}
		d.st.OpenProjectFile(p, path)
		d.st.Notify("opened project %s", path)
		return true, nil
	}
	return true, func() tea.Msg { return openDialogMsg{newImportDialog(d.st, path)} }
}

func (d *fileDialog) init() tea.Cmd { return d.picker.Init() }

func (d *fileDialog) update(msg tea.Msg) (bool, tea.Cmd) {
	if d.typing.Active {
		var done bool
		var next tea.Cmd
		cmd := d.typing.Update(msg, func(v string) error {
			path := strings.TrimSpace(v)
			if _, err := os.Stat(source.Path(path)); err != nil { // FILE.db:TABLE, FILE.xlsx:SHEET
				return fmt.Errorf("%s: %s", path, csvfile.OpenReason(err))
			}
			done, next = d.picked(path)
			return nil
		})
		if done {
			return true, next
		}
		return false, tea.Batch(cmd, next)
	}
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, d.st.Keys.Close):
			return true, nil
		case key.Matches(k, d.st.Keys.TypePath):
			return false, d.typing.Open("path: ", d.picker.CurrentDirectory+"/")
		}
	}
	var cmd tea.Cmd
	from := d.picker.CurrentDirectory
	d.picker, cmd = d.picker.Update(msg)
	if k, ok := msg.(tea.KeyMsg); ok && d.onPick == nil && key.Matches(k, d.st.Keys.Enter) &&
		d.picker.CurrentDirectory != from && isRelease(d.picker.CurrentDirectory) {
		// enter on a release folder opens the release (→ still browses
		// its files).
		return d.picked(d.picker.CurrentDirectory)
	}
	if ok, path := d.picker.DidSelectFile(msg); ok {
		done, next := d.picked(path)
		return done, tea.Batch(cmd, next)
	}
	if ok, path := d.picker.DidSelectDisabledFile(msg); ok {
		d.st.Notify("%s is not a file privlab reads (press %s to type its path anyway)", path, common.KeyName(d.st.Keys.TypePath))
	}
	return false, cmd
}

func (d *fileDialog) help() []key.Binding {
	k := d.st.Keys
	if d.typing.Active {
		return []key.Binding{k.Enter, k.Back}
	}
	// The picker's own keys, as it matches them (its Back is our close
	// on esc).
	pk := d.picker.KeyMap
	return []key.Binding{common.Described(pk.Up, "↑/k", "up"), common.Described(pk.Down, "↓/j", "down"), common.Described(pk.Open, "enter/→", "open"),
		common.Described(pk.Back, "←/h", "up a folder"), common.Described(pk.PageUp, "pgup/K", "page up"), common.Described(pk.PageDown, "pgdn/J", "page down"),
		common.Described(pk.GoToTop, "g", "first"), common.Described(pk.GoToLast, "G", "last"), k.TypePath, k.Close}
}

func (d *fileDialog) view(w, h int) string {
	s := d.st.Styles
	body := s.Title.Render(common.Safe(d.title)) + "  " + s.Muted.Render(common.Safe(d.picker.CurrentDirectory)) + "\n\n"
	if d.typing.Active {
		body += d.typing.View(s, w, "") + "\n"
	}
	body += d.picker.View() + "\n" + s.Muted.Render("↑/↓ move · enter open (a release folder: read it) · → into a folder · ← up · "+common.KeyName(d.st.Keys.TypePath)+" type a path · "+common.FirstKey(d.st.Keys.Close)+" cancel")
	return common.Block(body, w, h)
}

// datasetDialog picks an embedded dataset.
type datasetDialog struct {
	st     *State
	cursor int
	list   []model.DatasetInfo
}

func newDatasetDialog(st *State) *datasetDialog {
	d := &datasetDialog{st: st}
	if st.Env.Datasets != nil {
		d.list = st.Env.Datasets.List()
	}
	for i, ds := range d.list {
		if "dataset:"+ds.Name == st.Project.Input {
			d.cursor = i
		}
	}
	return d
}

func (d *datasetDialog) update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return false, nil
	}
	keys := d.st.Keys
	switch {
	case key.Matches(k, keys.Up):
		if d.cursor > 0 {
			d.cursor--
		}
	case key.Matches(k, keys.Down):
		if d.cursor < len(d.list)-1 {
			d.cursor++
		}
	case key.Matches(k, keys.Enter):
		if len(d.list) == 0 {
			return true, nil
		}
		d.st.LoadDataset(d.list[d.cursor].Name)
		return true, nil
	case key.Matches(k, keys.Close):
		return true, nil
	}
	return false, nil
}

func (d *datasetDialog) help() []key.Binding {
	k := d.st.Keys
	return []key.Binding{k.Up, k.Down, common.Described(k.Enter, common.KeyName(k.Enter), "load"), k.Close}
}

func (d *datasetDialog) view(w, h int) string {
	s := d.st.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("Load an embedded dataset") + "\n\n")
	for i, ds := range d.list {
		rows := fmt.Sprintf("%d rows", ds.DefaultRows)
		if ds.Generated {
			rows = fmt.Sprintf("%d rows, generated", ds.DefaultRows)
		}
		line := fmt.Sprintf("  %-19s %-22s %s", ds.Name, rows, ds.Title)
		if i == d.cursor {
			line = s.Selected.Render(common.Fit("▸"+line[1:], w-2))
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n" + s.Muted.Render(common.KeyName(d.st.Keys.Enter)+" load · "+common.FirstKey(d.st.Keys.Close)+" cancel"))
	return common.Block(b.String(), w, h)
}

// errorDialog shows the whole of the error that is on the summary bar,
// with what to do in the workbench (its keys, not command-line flags),
// why the attacks could not be measured, and the current warnings in
// full (the bar shows the first, cut).
type errorDialog struct {
	st       *State
	err      error
	attacks  error
	warnings []string
	// refused is an action's refusal (an error status) that err does not
	// show: the summary bar gives it what the error leaves, often a few
	// cells, so it is read in full here.
	refused string
}

// anyKey stands for every key in the error dialog's help: any key
// closes it.
var anyKey = key.NewBinding(key.WithKeys("esc"), key.WithHelp("any key", "close"))

func (d *errorDialog) update(msg tea.Msg) (bool, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); ok {
		return true, nil
	}
	return false, nil
}

func (d *errorDialog) help() []key.Binding {
	return []key.Binding{anyKey}
}

func (d *errorDialog) view(w, h int) string {
	s := d.st.Styles
	bw := min(w-4, 76)
	var parts []string
	if d.err != nil {
		body := s.Error.Render("The error") + "\n\n" + common.Wrap(common.WithoutHint(d.err), bw)
		if hint := d.st.Hint(d.err); hint != "" {
			body += "\n\n" + s.Label.Render("What to do: ") + common.Wrap(hint, bw-12)
		}
		parts = append(parts, body)
	}
	if d.refused != "" {
		parts = append(parts, s.Error.Render("Refused")+"\n\n"+common.Wrap(common.Safe(d.refused), bw))
	}
	if d.attacks != nil && d.attacks != d.err {
		body := s.Error.Render("The attacks could not be measured") + "\n\n" + common.Wrap(common.WithoutHint(d.attacks), bw)
		if hint := d.st.Hint(d.attacks); hint != "" {
			body += "\n\n" + s.Label.Render("What to do: ") + common.Wrap(hint, bw-12)
		}
		parts = append(parts, body)
	}
	if len(d.warnings) > 0 {
		body := s.Warn.Render(common.Plural(len(d.warnings), "warning"))
		for _, warn := range d.warnings {
			body += "\n\n" + common.Wrap("! "+common.Safe(warn), bw)
		}
		parts = append(parts, body)
	}
	parts = append(parts, s.Muted.Render("any key closes"))
	return centered(s.Dialog.Render(strings.Join(parts, "\n\n")), w, h)
}

// shownError is the error on the summary bar: a load error, else the last
// run's, else an error status message.
func (st *State) shownError() error {
	switch {
	case st.LoadErr != nil:
		return st.LoadErr
	case st.RunErr != nil:
		return st.RunErr
	case st.StatusErr && st.Status != "":
		return errors.New(st.Status)
	}
	return nil
}

// save writes the project to path and remembers it: ctrl+s writes back to
// it from then on. Every parameter of every method used is written with
// its value, the seed too (random unless one was set), so the file says
// what the workbench showed whatever the defaults become; the status line
// names the file written.
func (st *State) save(path string) error {
	if err := st.saveTarget(path); err != nil {
		return err
	}
	p := st.Project.Clone()
	p.Params = fullValues(st.Spec(), p.Params)
	for name, s := range p.Methods {
		if m, err := catalog.Lookup(name); err == nil {
			s.Params = fullValues(m.Spec(), s.Params)
			p.Methods[name] = s
		}
	}
	if err := p.Save(path); err != nil {
		return err
	}
	st.Saved(path)
	st.Notify("saved %s (%s reads it; %s saves as another file)", path, clitext.RunConfigCommand(""), st.Keys.SaveAs.Help().Key)
	return nil
}

// saveTarget refuses to save the project over a file it reads (the
// input, public or population table, a hierarchy file): that file is the
// user's data, never replaced, whatever they answer.
func (st *State) saveTarget(path string) error {
	if f := st.Project.InputFile(path); f != "" {
		what := path
		if f != path {
			what += " (" + f + ")"
		}
		return fmt.Errorf("not saved: %s is a file the project reads, never overwritten; save the project under another name", what)
	}
	return nil
}

// fullValues are every parameter the method declares, with its value:
// the one set, else its default.
func fullValues(spec method.Spec, set model.Values) model.Values {
	out := spec.Defaults()
	for name, v := range set {
		out[name] = v
	}
	return out
}

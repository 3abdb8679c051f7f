package ui

import "github.com/charmbracelet/bubbles/key"

// KeyMap holds every key binding of the workbench. Keys are matched with
// key.Matches, never by comparing strings, and every binding carries its
// help text, so the help bar and the full help (?) come from here.
type KeyMap struct {
	// global
	NextPane  key.Binding
	PrevPane  key.Binding
	Jump      key.Binding
	Help      key.Binding
	Quit      key.Binding
	Cancel    key.Binding
	Recompute key.Binding
	FullError key.Binding
	Save      key.Binding
	Open      key.Binding
	Dataset   key.Binding
	// movement
	Up    key.Binding
	Down  key.Binding
	Left  key.Binding
	Right key.Binding
	Enter key.Binding
	Back  key.Binding
	Yes   key.Binding
	No    key.Binding
	// data pane
	ToggleQI      key.Binding
	SetSA         key.Binding
	ToggleID      key.Binding
	ClearRole     key.Binding
	ToggleKind    key.Binding
	ToggleMissing key.Binding
	MissingTokens key.Binding
	Public        key.Binding
	PublicPath    key.Binding
	// hierarchy pane
	Builder  key.Binding
	Wider    key.Binding
	Narrow   key.Binding
	File     key.Binding
	FilePath key.Binding
	Widths   key.Binding
	Expand   key.Binding
	// target and parameters
	Inc     key.Binding
	Dec     key.Binding
	Edit    key.Binding
	Method  key.Binding
	Variant key.Binding
	// preview
	Sort    key.Binding
	Reverse key.Binding
	Detail  key.Binding
	Filter  key.Binding
	JumpTo  key.Binding
	// query and export
	Run     key.Binding
	Export  key.Binding
	History key.Binding
	// received release
	CheckReport key.Binding
}

// DefaultKeyMap returns the workbench's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		NextPane:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Jump:      key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "jump to pane")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Cancel:    key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "cancel computation")),
		Recompute: key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "recompute")),
		FullError: key.NewBinding(key.WithKeys("!"), key.WithHelp("!", "the full error")),
		Save:      key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save project.json")),
		Open:      key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "open CSV / project")),
		Dataset:   key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "load dataset")),

		Up:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:  key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "left")),
		Right: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "right")),
		Enter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "select")),
		Back:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Yes:   key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:    key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n", "no")),

		ToggleQI:      key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "toggle QI")),
		SetSA:         key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "sensitive")),
		ToggleID:      key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "identifier")),
		ClearRole:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "no role")),
		ToggleKind:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "numeric/categorical")),
		ToggleMissing: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "missing: drop/category")),
		MissingTokens: key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "missing-value tokens")),
		Public:        key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pick public table")),
		PublicPath:    key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "type public table")),

		Builder:  key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "builder")),
		Wider:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "wider")),
		Narrow:   key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "narrower")),
		File:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "pick a file")),
		FilePath: key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "type a file path")),
		Widths:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "interval widths")),
		Expand:   key.NewBinding(key.WithKeys("enter", " "), key.WithHelp("enter", "expand/collapse")),

		Inc:     key.NewBinding(key.WithKeys("+", "=", "right", "l"), key.WithHelp("+/→", "increase")),
		Dec:     key.NewBinding(key.WithKeys("-", "left", "h"), key.WithHelp("-/←", "decrease")),
		Edit:    key.NewBinding(key.WithKeys("enter", "e"), key.WithHelp("enter", "type a value")),
		Method:  key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "next method")),
		Variant: key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "next variant")),

		Sort:    key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort by next column")),
		Reverse: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reverse sort")),
		Detail:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "group detail")),
		Filter:  key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "violating / at root / all")),
		JumpTo:  key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "go to group")),

		Run:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Export:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "export")),
		History: key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "history")),

		CheckReport: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "whole check report")),
	}
}

// globalHelp is the part of the help that applies everywhere.
func (k KeyMap) globalHelp() []key.Binding {
	return []key.Binding{k.NextPane, k.Jump, k.Help, k.Quit}
}

// globalFull is the full list of global keys.
func (k KeyMap) globalFull() []key.Binding {
	return []key.Binding{k.NextPane, k.PrevPane, k.Jump, k.Help, k.Save, k.Open, k.Dataset, k.Cancel, k.Recompute, k.FullError, k.Quit}
}

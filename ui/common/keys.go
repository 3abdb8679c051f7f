package common

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// KeyMap holds every key binding of the workbench. Keys are matched with
// key.Matches against these bindings, and every view's help lists the
// bindings it matches, so the help bar and the full help (?) come from
// the same bindings that act (TestEveryMatchedKeyIsInTheHelp presses
// every other key on every view and checks that nothing happens), and
// every key name a screen shows is the Help().Key of its binding
// (TestRebindingRenamesEveryKeyOnScreen).
type KeyMap struct {
	// global
	NextPane  key.Binding
	PrevPane  key.Binding
	Jump      key.Binding
	Help      key.Binding
	Quit      key.Binding
	ForceQuit key.Binding // ctrl+c: asks to quit even while typing
	Cancel    key.Binding
	Recompute key.Binding
	FullError key.Binding
	Save      key.Binding
	SaveAs    key.Binding
	Open      key.Binding
	Dataset   key.Binding
	Tours     key.Binding
	TourTab   key.Binding // 0: the open tour's tab (issue 35.10: 1 then 0 landed in Data)
	Advisor   key.Binding // the Advisor's tab (after the nine digits' tabs)
	// movement and dialogs
	Up       key.Binding
	Down     key.Binding
	Left     key.Binding
	Right    key.Binding
	Enter    key.Binding
	Back     key.Binding
	Yes      key.Binding
	No       key.Binding
	Close    key.Binding
	TypePath key.Binding
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
	// preview (the groups table scrolls with the page keys)
	Sort         key.Binding
	Reverse      key.Binding
	Detail       key.Binding
	Filter       key.Binding
	JumpTo       key.Binding
	PageUp       key.Binding
	PageDown     key.Binding
	HalfPageUp   key.Binding
	HalfPageDown key.Binding
	Top          key.Binding
	Bottom       key.Binding
	// query, export, sweep and compare
	TypeQuery key.Binding
	Run       key.Binding
	History   key.Binding
	Example   key.Binding
	Export    key.Binding
	EditText  key.Binding // e: edit the pane's text (a directory, values)
	// Population picks (p) or types (P) the population table the
	// export's attacks read (run --population).
	Population     key.Binding
	PopulationPath key.Binding
	// NamePopulation names the columns of a population file without a
	// header row with the import wizard (population_columns).
	NamePopulation key.Binding
	Rerun          key.Binding
	OpenMethod     key.Binding
	// received release
	CheckReport key.Binding
	// advisor pane
	ComputeMap key.Binding
	// teaching tour
	NextStep key.Binding
	PrevStep key.Binding
	// import wizard (import.go)
	Delimiter  key.Binding
	NextPart   key.Binding
	HeaderRow  key.Binding
	ImportKind key.Binding
	ImportMiss key.Binding
	RenameCol  key.Binding
	NameAll    key.Binding
	Load       key.Binding
}

// DefaultKeyMap returns the workbench's keys.
func DefaultKeyMap() KeyMap {
	km := KeyMap{
		NextPane:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Jump:      key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "jump to pane")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit (also while typing)")),
		Cancel:    key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "cancel computation")),
		Recompute: key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "recompute")),
		FullError: key.NewBinding(key.WithKeys("!"), key.WithHelp("!", "the full error and warnings")),
		Save:      key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save project")),
		SaveAs:    key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "save project as…")),
		Open:      key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "open CSV / project")),
		Dataset:   key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "load dataset")),
		Tours:     key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "teaching tours")),
		TourTab:   key.NewBinding(key.WithKeys("0"), key.WithHelp("0", "open the tour")),
		Advisor:   key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "the advisor")),
	}
	moveKeys(&km)
	dataKeys(&km)
	hierarchyKeys(&km)
	methodKeys(&km)
	previewKeys(&km)
	workKeys(&km)
	releaseKeys(&km)
	tourKeys(&km)
	km.ComputeMap = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "compute the map"))
	importKeys(&km)
	return km
}

// moveKeys sets the keys that move and answer in lists and dialogs.
func moveKeys(km *KeyMap) {
	km.Up = key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up"))
	km.Down = key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down"))
	km.Left = key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "left"))
	km.Right = key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "right"))
	km.Enter = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "select"))
	km.Back = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back"))
	km.Yes = key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes"))
	km.No = key.NewBinding(key.WithKeys("n", "N", "esc", "q"), key.WithHelp("n/esc", "no"))
	km.Close = key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc/q", "close"))
	km.TypePath = key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "type a path"))
}

// dataKeys sets the Data pane's keys: roles, kinds, missing values, the public table.
func dataKeys(km *KeyMap) {
	km.ToggleQI = key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "toggle QI"))
	km.SetSA = key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "sensitive"))
	km.ToggleID = key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "identifier"))
	km.ClearRole = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "no role"))
	km.ToggleKind = key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "numeric/categorical"))
	km.ToggleMissing = key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "missing: drop/category"))
	km.MissingTokens = key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "missing-value tokens"))
	km.Public = key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pick public table"))
	km.PublicPath = key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "type public table"))
}

// hierarchyKeys sets the Hierarchy pane's keys.
func hierarchyKeys(km *KeyMap) {
	km.Builder = key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "builder"))
	km.Wider = key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "wider"))
	km.Narrow = key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "narrower"))
	km.File = key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "pick a file"))
	km.FilePath = key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "type a file path"))
	km.Widths = key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "interval widths"))
	km.Expand = key.NewBinding(key.WithKeys("enter", " "), key.WithHelp("enter", "expand/collapse"))
}

// methodKeys sets the Method pane's keys: parameters, method, variant.
func methodKeys(km *KeyMap) {
	km.Inc = key.NewBinding(key.WithKeys("+", "=", "right", "l"), key.WithHelp("+/→", "increase"))
	km.Dec = key.NewBinding(key.WithKeys("-", "left", "h"), key.WithHelp("-/←", "decrease"))
	km.Edit = key.NewBinding(key.WithKeys("enter", "e"), key.WithHelp("enter", "type a value"))
	km.Method = key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "next method"))
	km.Variant = key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "next variant"))
}

// previewKeys sets the Preview pane's keys: sorting, filtering and paging groups.
func previewKeys(km *KeyMap) {
	km.Sort = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort by next column"))
	km.Reverse = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reverse sort"))
	km.Detail = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "group detail"))
	km.Filter = key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "violating / at root / all"))
	km.JumpTo = key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "go to group"))
	km.PageUp = key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup/b", "page up"))
	km.PageDown = key.NewBinding(key.WithKeys("pgdown", "f"), key.WithHelp("pgdn/f", "page down"))
	km.HalfPageUp = key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "half page up"))
	km.HalfPageDown = key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "half page down"))
	km.Top = key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first group"))
	km.Bottom = key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "last group"))
}

// workKeys sets the keys of the Query, Export, Sweep and Compare panes.
func workKeys(km *KeyMap) {
	km.TypeQuery = key.NewBinding(key.WithKeys("enter", "/"), key.WithHelp("enter", "type a query"))
	km.Run = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run"))
	km.History = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "history"))
	km.Example = key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "example"))
	km.Export = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "export"))
	km.EditText = key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit"))
	km.Population = key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pick population"))
	km.PopulationPath = key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "type population"))
	km.NamePopulation = key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "name the population's columns"))
	km.Rerun = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "run again"))
	km.OpenMethod = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run / open the method"))
}

// releaseKeys sets the received release pane's keys.
func releaseKeys(km *KeyMap) {
	km.CheckReport = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "whole check report"))
}

// tourKeys sets the tour pane's keys.
func tourKeys(km *KeyMap) {
	km.NextStep = key.NewBinding(key.WithKeys("right", "l", "n", " "), key.WithHelp("→/n", "next step"))
	km.PrevStep = key.NewBinding(key.WithKeys("left", "h", "p"), key.WithHelp("←/p", "previous step"))
}

// importKeys sets the import wizard's keys.
func importKeys(km *KeyMap) {
	km.Delimiter = key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "delimiter"))
	km.NextPart = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "next sheet/table"))
	km.HeaderRow = key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "header row"))
	km.ImportKind = key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "numeric/categorical"))
	km.ImportMiss = key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "missing values"))
	km.RenameCol = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "rename"))
	km.NameAll = key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "name all"))
	km.Load = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "load"))
}

// Described is b with another help text: a view names what a shared
// binding does there ("e edit values"), and matches b itself.
func Described(b key.Binding, keyText, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(keyText, desc))
}

// KeyIndex is the position of the pressed key among b's keys (-1 when b
// does not match it): 1-9 jump to the pane of that number.
func KeyIndex(b key.Binding, msg tea.KeyMsg) int {
	for i, k := range b.Keys() {
		if key.Matches(msg, key.NewBinding(key.WithKeys(k))) {
			return i
		}
	}
	return -1
}

// GlobalHelp is the part of the help that applies everywhere.
func (k KeyMap) GlobalHelp() []key.Binding {
	return []key.Binding{k.NextPane, k.Jump, k.Help, k.Quit}
}

// GlobalFull is the full list of global keys.
func (k KeyMap) GlobalFull() []key.Binding {
	return []key.Binding{k.NextPane, k.PrevPane, k.Jump, k.TourTab, k.Advisor, k.Help, k.Save, k.SaveAs, k.Open, k.Dataset, k.Tours, k.Cancel, k.Recompute,
		k.FullError, k.Quit, k.ForceQuit}
}

// FirstKey is the first of the key names the help gives b ("n" of
// "n/esc"): a screen text names one key where the help lists several.
func FirstKey(b key.Binding) string {
	name, _, _ := strings.Cut(KeyName(b), "/")
	return name
}

// YesNo is a question's answer keys ("y/n").
func YesNo(k KeyMap) string { return FirstKey(k.Yes) + "/" + FirstKey(k.No) }

// PickType names the keys that pick (p) or type (P) the population.
func PickType(k KeyMap) string {
	return KeyName(k.Population) + ": pick, " + KeyName(k.PopulationPath) + ": type"
}

// UpDown names the keys that scroll ("↑/↓").
func UpDown(k KeyMap) string { return FirstKey(k.Up) + "/" + FirstKey(k.Down) }

// JumpKey names the key that jumps to the n-th tab (from 0): the Jump
// binding's keys in order, the tab's number past them.
func JumpKey(k KeyMap, n int) string {
	if keys := k.Jump.Keys(); n < len(keys) {
		return keys[n]
	}
	return fmt.Sprint(n + 1)
}

// KeyName is the name the help gives a binding's key ("space", "ctrl+o").
func KeyName(b key.Binding) string { return b.Help().Key }

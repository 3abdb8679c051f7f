package advisor

import "github.com/charmbracelet/bubbles/key"

// KeyMap are the Advisor pane's keys. Every key name the pane shows is
// read from these bindings, so a rebinding shows on screen.
type KeyMap struct {
	// Prev and Next move along the Pareto front: to the point of lower
	// risk (and higher loss), or of higher risk (and lower loss).
	Prev, Next key.Binding
	// Adopt sets the project's method and parameters to the selected point.
	Adopt key.Binding
	// Recompute (re)computes the map.
	Recompute key.Binding
	// Cancel stops a computation under way.
	Cancel key.Binding
}

// DefaultKeyMap: arrows move along the front, enter adopts, r or ctrl+r
// recomputes, esc cancels.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Prev:      key.NewBinding(key.WithKeys("left", "up"), key.WithHelp("left/up", "lower risk")),
		Next:      key.NewBinding(key.WithKeys("right", "down"), key.WithHelp("right/down", "lower loss")),
		Adopt:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "adopt point")),
		Recompute: key.NewBinding(key.WithKeys("r", "ctrl+r"), key.WithHelp("r", "recompute")),
		Cancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp is the help bar's line (bubbles/help.KeyMap).
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Prev, k.Next, k.Adopt, k.Recompute, k.Cancel}
}

// FullHelp is the help dialog's columns (bubbles/help.KeyMap).
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Prev, k.Next, k.Adopt}, {k.Recompute, k.Cancel}}
}

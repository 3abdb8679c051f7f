// Package common holds what every part of the workbench's screen shares:
// the one style sheet (Styles), the key map every key is matched against
// and every key name on screen is rendered from (KeyMap), and the layout
// helpers that measure, cut, pad, wrap and escape text in terminal cells.
// It imports nothing of the ui but the model's text escaping.
package common

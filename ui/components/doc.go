// Package components holds the pieces several panes are built from: the
// one-line editor, the scroller, the background job, the line chart and
// the renderer of a method's sections (tables and charts). They draw with
// the common style sheet and act on the common key map.
package components

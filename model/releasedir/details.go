package releasedir

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// FigureSummary is min / mean / max of one per-group figure over the
// groups (a method's details state it; its checker recomputes it).
type FigureSummary struct {
	Figure string  `json:"figure"`
	Min    float64 `json:"min"`
	Mean   float64 `json:"mean"`
	Max    float64 `json:"max"`
}

// EncodeDetails renders a method's details (its format package's struct)
// as the manifest holds them. A figure JSON cannot hold (NaN or an
// infinity) stops the export naming it, as checkFinite does for the rest
// of the manifest.
func EncodeDetails(v any) (json.RawMessage, error) {
	if where, x, ok := nonFinite(reflect.ValueOf(v), "details"); ok {
		return nil, nonFiniteError(where, x)
	}
	return json.Marshal(v)
}

// DecodeDetails reads a manifest's details into v, a pointer to the
// method's declaration of them, strictly (strictjson.Decode): a key v does not
// name exactly, or one given twice, is an error, so that report.md (which
// shows every key) states nothing the reader does not read. A manifest
// without details is an error too: every method writes them. Details
// read again unchanged are not decoded again (decodeCached).
func DecodeDetails(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return fmt.Errorf("the manifest has no details")
	}
	if err := decodeCached(raw, v); err != nil {
		return fmt.Errorf("details: %w", err)
	}
	return nil
}

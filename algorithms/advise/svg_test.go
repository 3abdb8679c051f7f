package advise

import (
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/model"
)

// TestWriteSVG parses the map as XML: the legend names the five methods,
// and one dashed path, through the front's points, joins the front.
func TestWriteSVG(t *testing.T) {
	var points []Point
	for i, name := range catalog.Names() {
		for j := 0; j < 3; j++ {
			r, l := float64(i+1)/10+float64(j)/50, float64(5-i)/10+float64(j)/40
			points = append(points, Point{Setting: Setting{Method: name, Values: model.Values{}}, Holds: j != 2, Risk: r, Interval: [2]float64{r - 0.01, r + 0.01}, Loss: l})
		}
	}
	points = append(points, Point{Setting: Setting{Method: "kja"}, Holds: true, Risk: math.NaN(), Loss: 0.1})
	MarkFront(points)
	front := 0
	for _, p := range points {
		if p.Front {
			front++
		}
	}
	if front < 3 {
		t.Fatalf("the test's points put %d on the front, want several", front)
	}
	at, _ := Pick(points, 0.25)
	path := filepath.Join(t.TempDir(), "map.svg")
	if err := WriteSVG(path, points, at); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var texts []string
	frontPaths := 0
	dec := xml.NewDecoder(f)
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch el.Name.Local {
		case "text":
			var s string
			if err := dec.DecodeElement(&s, &el); err != nil {
				t.Fatal(err)
			}
			texts = append(texts, strings.TrimSpace(s))
		case "path":
			var d, style string
			for _, a := range el.Attr {
				switch a.Name.Local {
				case "d":
					d = a.Value
				case "style":
					style = a.Value
				}
			}
			// The front's line: dashed, with a vertex per front point
			// (the legend's sample of it has two).
			if strings.Contains(style, "stroke-dasharray:5,2") && strings.Count(d, "L")+1 == front {
				frontPaths++
			}
		}
	}
	for _, name := range append(catalog.Names(), "Pareto front", "pick", "definition fails") {
		if !slices.Contains(texts, name) {
			t.Errorf("the legend lacks %q (texts %q)", name, texts)
		}
	}
	if frontPaths != 1 {
		t.Errorf("%d paths join the front, want 1", frontPaths)
	}
}

// TestMapCapsTheLossAxis: one point far above the front (a loss of 40
// against a front below 1) is drawn at the top of an axis that ends a
// quarter above the front, which the axis label says; without such a
// point the axis is the points' own.
func TestMapCapsTheLossAxis(t *testing.T) {
	pt := func(method string, risk, loss float64, holds bool) Point {
		return Point{Setting: Setting{Method: method, Values: model.Values{}}, Holds: holds, Risk: risk, Interval: [2]float64{risk, risk}, Loss: loss}
	}
	points := []Point{pt("kja", 0.3, 0.01, true), pt("lossyjoin", 0.2, 0.2, true), pt("ambiguity", 0.05, 0.8, true), pt("distribution", 0.25, 40, true)}
	MarkFront(points)
	if !points[2].Front || points[3].Front {
		t.Fatalf("front %v", points)
	}
	p, err := Map(points, -1)
	if err != nil {
		t.Fatal(err)
	}
	// Data up to 0.8 x 1.25 = 1, then the legend's room (0.6 of the range).
	if p.Y.Max != 1.6 || !strings.Contains(p.Y.Label.Text, "higher losses drawn at the top") {
		t.Fatalf("loss axis to %v, label %q; want 1.6 and the note", p.Y.Max, p.Y.Label.Text)
	}
	p, err = Map(points[:3], -1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.Y.Max-0.8*1.6) > 1e-12 || strings.Contains(p.Y.Label.Text, "top") {
		t.Fatalf("without the far point: loss axis to %v, label %q", p.Y.Max, p.Y.Label.Text)
	}
}

package advise

import (
	"image/color"
	"io"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"privlab/model/releasedir"
)

// FrontDashes is the dash pattern of the line joining the Pareto front
// in the SVG map: no other line of the map is dashed so.
var FrontDashes = []vg.Length{vg.Points(5), vg.Points(2)}

// mapGlyphs are the methods' symbols, in the methods' order.
var mapGlyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
	draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}}

// WriteSVG writes the risk-utility map of the points to path as an SVG
// picture, atomically (a temporary file renamed into place): risk
// across, utility loss up, a symbol per method with a legend (points
// whose definition fails in grey), the Pareto front joined by a dashed
// line and the pick (at; -1 for none) ringed.
func WriteSVG(path string, points []Point, at int) error {
	p, err := Map(points, at)
	if err != nil {
		return err
	}
	wt, err := p.WriterTo(7*vg.Inch, 5*vg.Inch, "svg")
	if err != nil {
		return err
	}
	return releasedir.WriteAtomic(path, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}

// Map draws the risk-utility map (Duncan et al.'s R-U confidentiality
// map) of the points with gonum's plot.
func Map(points []Point, at int) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Risk-utility map"
	p.X.Label.Text = "risk beyond the baseline (calibrated attack)"
	p.Y.Label.Text = "utility loss (median relative error)"
	p.Legend.Top = true
	var methods []string
	byMethod := map[string]plotter.XYs{}
	var failing plotter.XYs
	top, capped := lossAxisTop(points)
	if capped {
		p.Y.Label.Text += "; higher losses drawn at the top"
	}
	for _, pt := range points {
		if !pt.Measured() {
			continue
		}
		if _, seen := byMethod[pt.Method]; !seen {
			methods = append(methods, pt.Method)
			byMethod[pt.Method] = plotter.XYs{}
		}
		xy := plotter.XY{X: pt.Risk, Y: math.Min(pt.Loss, top)}
		if !pt.Holds {
			failing = append(failing, xy)
			continue
		}
		byMethod[pt.Method] = append(byMethod[pt.Method], xy)
	}
	for i, m := range methods {
		s, err := plotter.NewScatter(byMethod[m])
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(i), Radius: vg.Points(3), Shape: mapGlyphs[i%len(mapGlyphs)]}
		p.Add(s)
		p.Legend.Add(m, s)
	}
	if len(failing) > 0 {
		s, err := plotter.NewScatter(failing)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 170}, Radius: vg.Points(3), Shape: draw.CrossGlyph{}}
		p.Add(s)
		p.Legend.Add("definition fails", s)
	}
	if err := addFront(p, points); err != nil {
		return nil, err
	}
	if at >= 0 && at < len(points) && points[at].Measured() {
		s, err := plotter.NewScatter(plotter.XYs{{X: points[at].Risk, Y: points[at].Loss}})
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{R: 200, A: 255}, Radius: vg.Points(7), Shape: draw.RingGlyph{}}
		p.Add(s)
		p.Legend.Add("pick", s)
	}
	// Room above the points for the legend (top right), so it covers none.
	p.X.Min, p.Y.Min = math.Min(p.X.Min, 0), math.Min(p.Y.Min, 0)
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.6
	return p, nil
}

// lossAxisTop is where the map's loss axis ends: a quarter above the
// front's highest loss when some point's loss is higher still (it is then
// drawn at the top, capped says so), as the workbench's chart does, so
// that one very lossy setting (distribution's, say, at 40) does not
// flatten the front against the axis; +Inf otherwise.
func lossAxisTop(points []Point) (top float64, capped bool) {
	frontMax, lossMax := math.Inf(-1), math.Inf(-1)
	for _, pt := range points {
		if !pt.Measured() {
			continue
		}
		lossMax = math.Max(lossMax, pt.Loss)
		if pt.Front {
			frontMax = math.Max(frontMax, pt.Loss)
		}
	}
	if top = frontMax * 1.25; frontMax > 0 && lossMax > top {
		return top, true
	}
	return math.Inf(1), false
}

// addFront joins the front's points by a dashed line in order along it
// (the risk's upper end up, MarkFront; then risk).
func addFront(p *plot.Plot, points []Point) error {
	var along []Point
	for _, pt := range points {
		if pt.Front {
			along = append(along, pt)
		}
	}
	if len(along) == 0 {
		return nil
	}
	sort.SliceStable(along, func(i, j int) bool {
		if along[i].High() != along[j].High() {
			return along[i].High() < along[j].High()
		}
		return along[i].Risk < along[j].Risk
	})
	front := make(plotter.XYs, len(along))
	for i, pt := range along {
		front[i] = plotter.XY{X: pt.Risk, Y: pt.Loss}
	}
	l, err := plotter.NewLine(front)
	if err != nil {
		return err
	}
	l.LineStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(1), Dashes: FrontDashes}
	p.Add(l)
	p.Legend.Add("Pareto front", l)
	return nil
}

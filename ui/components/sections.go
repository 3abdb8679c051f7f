package components

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"

	"privlab/algorithms/method"
	"privlab/ui/common"
)

// RenderSections draws a method's titled sections (notes, tables, bar
// charts) in w x h without knowing the method: a group's detail and a
// charts pane both go through it. Tables share the height with charts;
// offset scrolls the tables' rows, with the keys scroll names ("↑/↓").
func RenderSections(s *common.Styles, secs []method.Section, w, h, offset int, scroll string) string {
	fixed, tables, charts := 0, 0, 0
	for _, sec := range secs {
		if sec.Title != "" {
			fixed++
		}
		fixed += len(sec.Notes)
		if len(sec.Header) > 0 {
			tables++
			fixed++ // header
		}
		if len(sec.Series) > 0 {
			charts++
			fixed++ // legend
		}
	}
	room := max(h-fixed, tables+charts)
	tableRoom, chartRoom := room, 0
	if charts > 0 {
		tableRoom = room / 2
		if tables == 0 {
			tableRoom = 0
		}
		chartRoom = room - tableRoom
	}
	var b strings.Builder
	for _, sec := range secs {
		if sec.Title != "" {
			b.WriteString(s.Title.Render(common.Fit(common.Safe(sec.Title), w)) + "\n")
		}
		for _, n := range sec.Notes {
			b.WriteString(common.Fit(common.Safe(n), w) + "\n")
		}
		if len(sec.Header) > 0 {
			b.WriteString(TableView(s, sec, w, max(1, tableRoom/tables), offset, scroll))
		}
		if len(sec.Series) > 0 {
			b.WriteString(chartView(s, sec, w, max(1, chartRoom/charts)))
		}
	}
	return b.String()
}

// TableView draws a table's header and up to h rows from offset with
// lipgloss/table: no borders, two cells between columns, each column as
// wide as its content, shrunk (cells cut with …) to fit w.
func TableView(s *common.Styles, sec method.Section, w, h, offset int, scroll string) string {
	if offset > len(sec.Rows)-h {
		offset = max(0, len(sec.Rows)-h)
	}
	end := min(len(sec.Rows), offset+h)
	last := len(sec.Header) - 1
	tbl := table.New().Headers(safeCells(sec.Header)...).Rows(safeRows(sec.Rows[offset:end])...).Wrap(false).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderHeader(false).BorderColumn(false).BorderRow(false).
		StyleFunc(func(row, col int) lipgloss.Style {
			st := s.TableCell
			if row == table.HeaderRow {
				st = s.Label
			}
			if col < last {
				st = st.PaddingRight(2)
			}
			return st
		})
	out := tbl.String()
	if lipgloss.Width(out) > w {
		out = tbl.Width(w).String()
	}
	var b strings.Builder
	b.WriteString(out + "\n")
	total := max(sec.Total, len(sec.Rows))
	if end-offset < total {
		more := fmt.Sprintf("rows %d-%d of %s", offset+1, end, common.Thousands(total))
		if total > len(sec.Rows) {
			more += fmt.Sprintf(" (the first %s are listed)", common.Thousands(len(sec.Rows)))
		}
		b.WriteString(s.Muted.Render(common.Fit(more+" · "+scroll+" scroll", w)) + "\n")
	}
	return b.String()
}

// chartView draws a bar chart in w x h: a legend line, then one line per
// label with a bar per series, all on one scale. When the labels
// outnumber the rows, consecutive labels share a row, and the chart says
// so on its last line (never merged silently).
func chartView(s *common.Styles, sec method.Section, w, h int) string {
	series := make([][]float64, len(sec.Series))
	largest := make([]bool, len(sec.Series))
	for i, se := range sec.Series {
		series[i], largest[i] = se.Values, se.Largest
	}
	rows := max(1, h)
	binned := len(sec.Labels) > rows
	if binned && rows > 1 {
		rows-- // the line that says so
	}
	lbls, ser := common.Bins(sec.Labels, series, largest, rows)
	maxV := 0.0
	for _, se := range ser {
		for _, x := range se {
			maxV = maxF(maxV, x)
		}
	}
	lblW := 12
	barW := max(3, (w-lblW)/max(1, len(ser)))
	var b strings.Builder
	hdr := fmt.Sprintf("%-*s", lblW, "value")
	for i, se := range sec.Series {
		hdr += s.Bars[i%len(s.Bars)].Render(common.Fit(common.Safe(se.Name), barW-1)) + " "
	}
	b.WriteString(common.Fit(hdr, w) + "\n")
	for i, l := range lbls {
		line := fmt.Sprintf("%-*s", lblW, common.Clip(common.Safe(l), lblW-1))
		for k := range ser {
			f := 0.0
			if maxV > 0 && i < len(ser[k]) {
				f = ser[k][i] / maxV
			}
			line += s.Bars[k%len(s.Bars)].Render(common.Bar(f, barW-1)) + " "
		}
		b.WriteString(common.Fit(line, w) + "\n")
	}
	if binned {
		b.WriteString(s.Muted.Render(common.Fit(binnedNote(sec, len(lbls)), w)) + "\n")
	}
	return b.String()
}

// binnedNote says that a chart's labels share rows: how many, and how
// the series were combined.
func binnedNote(sec method.Section, rows int) string {
	note := fmt.Sprintf("%d values on %d rows (about %d a row):", len(sec.Labels), rows, (len(sec.Labels)+rows-1)/rows)
	for i, se := range sec.Series {
		if i > 0 {
			note += ","
		}
		how := "summed"
		if se.Largest {
			how = "the largest"
		}
		note += " " + se.Name + " " + how
	}
	return note + " · a taller terminal shows each"
}

func maxF(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

// safeCells is a table row of names and values as shown (safe).
func safeCells(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = common.Safe(c)
	}
	return out
}

// safeRows is safeCells of every row.
func safeRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = safeCells(r)
	}
	return out
}

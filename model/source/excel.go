package source

import (
	"context"
	"math"
	"strings"

	"github.com/xuri/excelize/v2"

	"privlab/model"
)

// An Excel sheet is read row by row with excelize's streaming iterator:
// the first sheet, or the one FILE.xlsx:SHEET names. Cells are read as
// Excel stores them (RawCellValue): a number with all its digits, not
// rounded by the cell's display format; a date as its serial day number
// (a number); text as it is. The first row is the header or data as for
// CSV (model.FirstRowIsData; --header, --columns). A column of numbers in
// which a value has a leading zero ("01234") holds text cells, since
// Excel never writes a number so: it is read as categorical and keeps its
// zeros. Errors name the sheet, the row (as Excel numbers it) and the
// column.

// openExcel opens a workbook with its unzipped size bounded by this
// machine's memory (a zip bomb is an error, not a crash).
func openExcel(path string) (*excelize.File, error) {
	limit := int64(math.Min(model.Memory(), 16<<30))
	f, err := excelize.OpenFile(path, excelize.Options{UnzipSizeLimit: limit})
	if err != nil {
		return nil, asInput(path, Excel, err)
	}
	return f, nil
}

func excelSheets(path string) ([]string, error) {
	f, err := openExcel(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.GetSheetList(), nil
}

// sheetOf finds the sheet part names: the first one when part is empty,
// else the one of that name (in any case).
func sheetOf(f *excelize.File, path, part string) (string, error) {
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return "", &model.InputError{File: path, Msg: "the workbook has no sheets"}
	}
	if part == "" {
		return sheets[0], nil
	}
	for _, s := range sheets {
		if s == part {
			return s, nil
		}
	}
	for _, s := range sheets {
		if strings.EqualFold(s, part) {
			return s, nil
		}
	}
	return "", notFound(path, "sheet", part, sheets)
}

// loadExcel reads the sheet; limit > 0 stops after that many rows (a
// preview).
func loadExcel(ctx context.Context, path, part string, opt model.LoadOptions, limit int) (*model.Table, error) {
	f, err := openExcel(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sheet, err := sheetOf(f, path, part)
	if err != nil {
		return nil, err
	}
	name := tableName(path, sheet)
	rows, err := f.Rows(sheet)
	if err != nil {
		return nil, asInput(name, Excel, err)
	}
	defer rows.Close()
	l, err := model.NewRowLoader(name, nil, nil, opt)
	if err != nil {
		return nil, err
	}
	var cells []model.Cell
	var zeros []bool // per column: a value with a leading zero was seen
	for line := 1; rows.Next() && (limit <= 0 || line <= limit); line++ {
		vals, err := rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, asInput(name, Excel, err)
		}
		cells = cells[:0]
		for i, v := range vals {
			cells = append(cells, model.Cell{Text: v})
			if leadingZero(v) {
				for len(zeros) <= i {
					zeros = append(zeros, false)
				}
				zeros[i] = true
			}
		}
		if err := l.Add(cells, line); err != nil {
			return nil, err
		}
	}
	if err := rows.Error(); err != nil {
		return nil, asInput(name, Excel, err)
	}
	for i, z := range zeros {
		if z {
			l.Declare(i, model.Categorical)
		}
	}
	return l.Table()
}

// leadingZero reports whether v reads as a number written with a leading
// zero (007, -01.5): text, since Excel writes no number so.
func leadingZero(v string) bool {
	s := strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+")
	if len(s) < 2 || s[0] != '0' || s[1] < '0' || s[1] > '9' {
		return false
	}
	_, ok := model.ParseNumber(v)
	return ok
}

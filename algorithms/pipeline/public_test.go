package pipeline

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"privlab/model"
)

const publicMT = `id,age,zip,disease
1,30,100,flu
2,40,200,hiv
3,50,100,flu
4,60,200,cold
`

// The public table is loaded by the one loader with the input's column
// kinds, and every way it can be unfit for a run is an input or parameter
// error naming the file or the parameter (issue: a method-neutral input).
func TestLoadPublicErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "mt.csv")
	writeFile(t, in, publicMT)
	src, err := Env{}.LoadTable(Project{Input: in})
	if err != nil {
		t.Fatal(err)
	}
	roles := model.Roles{IDs: []string{"id"}, QIs: []string{"age", "zip"}, SA: "disease"}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		writeFile(t, p, text)
		return p
	}
	cases := []struct {
		name, method, public, want string
		param                      bool
	}{
		{"no QI column", "kja", write("noqi.csv", "id,age\n1,30\n"), `no quasi-identifier column "zip"`, false},
		{"kind clash", "kja", write("kind.csv", "id,age,zip\n1,old,100\n"), "column age is numeric in the input but not in the public table", false},
		{"ragged", "kja", write("ragged.csv", "id,age,zip\n1,30\n"), "ragged.csv:2", false},
		{"missing file", "kja", filepath.Join(dir, "nosuch.csv"), "nosuch.csv", false},
		{"method reads none", "lossyjoin", write("fine.csv", "id,age,zip\n9,30,100\n"), "method lossyjoin reads no public table", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := Project{Input: in, Roles: roles, Method: c.method, Public: c.public, Params: model.Values{"k": "2"}}
			_, err := Env{}.Prepare(p, src)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
			var pe *model.ParamError
			var ie *model.InputError
			if c.param && !errors.As(err, &pe) || !c.param && !errors.As(err, &ie) {
				t.Fatalf("error %T %v: wrong kind", err, err)
			}
		})
	}
	// A public table whose QI is read as categorical takes the input's
	// numeric kind when its values allow it; a header-less input's
	// --columns are not applied to it.
	pub := write("pub.csv", "id,age,zip\n9,30,100\n8,45,200\n")
	p := Project{Input: in, Roles: roles, Method: "kja", Public: pub, Columns: nil, Params: model.Values{"k": "2"}}
	prep, err := Env{}.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	if prep.Public == nil || prep.Public.Rows != 2 || prep.Public.Column("age").Kind != model.Numeric {
		t.Fatalf("public table %+v", prep.Public)
	}
}

package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/query"
)

func cmdQuery(a *Args, w, ew io.Writer) error {
	if len(a.Positional) != 1 {
		return &model.ParamError{Param: "query", Reason: "expected one query", Hint: `privlab query [flags] "AVG(salary) WHERE gender = 'F'"`}
	}
	text := a.Positional[0]
	if a.Release != "" {
		ans, man, err := pipeline.OpenRelease(a.Release)
		if err != nil {
			return err
		}
		var orig *model.Table
		if a.Original != "" {
			if orig, err = loadOriginal(a, a.Original, releaseDir(a)); err != nil {
				return err
			}
			// The truth is taken over the rows the release could publish.
			policy, _ := model.ParseMissingPolicy(man.MissingValues)
			orig, _ = orig.HandleMissing(append(append([]string(nil), man.QIs...), man.SA), policy)
		}
		r, err := pipeline.Answer(text, orig, ans)
		if err != nil {
			return queryError(err)
		}
		if orig == nil {
			r.Warnings = append(r.Warnings, pipeline.PublishedValueWarnings(r.Query, a.Release)...)
		}
		printQuery(w, r)
		return nil
	}
	p, err := prepare(a)
	if err != nil {
		return err
	}
	ctx, cancel := interruptible(ew)
	defer cancel()
	res, err := runAnnounced(ctx, p, ew)
	if err != nil {
		return err
	}
	r, err := pipeline.Answer(text, p.Table, res.Answerer)
	if err != nil {
		return queryError(err)
	}
	printQuery(w, r)
	return nil
}

// queryError adds the caret picture to a query error.
func queryError(err error) error {
	var qe *query.Error
	if errors.As(err, &qe) {
		return fmt.Errorf("%w\n  %s", err, strings.ReplaceAll(qe.Caret(), "\n", "\n  "))
	}
	return err
}

// printQuery writes a query result.
func printQuery(w io.Writer, r *pipeline.QueryResult) {
	fmt.Fprintf(w, "query      %s\n", r.Query.Text)
	count := r.Query.Agg == query.Count
	if r.HasTru {
		if r.Truth.Empty && count {
			fmt.Fprintf(w, "true       0  (0 rows)\n")
		} else if r.Truth.Empty {
			fmt.Fprintf(w, "true       (no row selected)\n")
		} else {
			fmt.Fprintf(w, "true       %s  (%d rows)\n", pipeline.FormatFigure(r.Truth.Value), r.Truth.Count)
		}
	}
	a := r.Answer
	switch {
	case a.Empty && count:
		fmt.Fprintf(w, "release    0 (exact)\n")
	case a.Empty:
		fmt.Fprintf(w, "release    (no row selected)\n")
	case a.HasBounds && a.Low == a.High:
		fmt.Fprintf(w, "release    %s (exact)\n", pipeline.FormatFigure(a.Low))
	case a.HasBounds:
		fmt.Fprintf(w, "release    [%s, %s]\n", pipeline.FormatFigure(a.Low), pipeline.FormatFigure(a.High))
	case a.HasEst:
		fmt.Fprintf(w, "release    %s (estimate)\n", pipeline.FormatFigure(a.Estimate))
	}
	if !math.IsNaN(r.RelErr) {
		fmt.Fprintf(w, "rel. error %.4f\n", r.RelErr)
	}
	if r.HasTru && a.HasBounds && !a.Empty && !r.Truth.Empty {
		if r.Truth.Value < a.Low-1e-9*math.Abs(a.Low) || r.Truth.Value > a.High+1e-9*math.Abs(a.High) {
			fmt.Fprintf(w, "WARNING    the bounds do not contain the true answer\n")
		}
	}
	if a.Note != "" {
		fmt.Fprintf(w, "how        %s\n", a.Note)
	}
	for _, m := range r.Warnings {
		fmt.Fprintf(w, "warning    %s\n", m)
	}
}

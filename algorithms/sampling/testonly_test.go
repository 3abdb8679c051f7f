package sampling

// stepCount is the number of steps taken (see the termination argument
// on recoder), passCount the number of passes.
func (r *recoder) stepCount() int { return r.steps }

func (r *recoder) passCount() int { return r.passes }
